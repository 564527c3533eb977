import { afterEach, describe, expect, it, vi } from 'vitest';
import { cachedCount, forgetAllCounts, forgetCounts } from './count-cache';

describe('page totals', () => {
  afterEach(() => {
    vi.useRealTimers();
    forgetAllCounts();
  });

  it('answers the known total while one recount runs in the background, then the new one', async () => {
    vi.useFakeTimers();
    let rows = 10;
    const count = vi.fn(async () => rows);
    expect(await cachedCount('user|a', count)).toBe(10);
    expect(await cachedCount('user|a', count)).toBe(10);
    expect(count).toHaveBeenCalledTimes(1);

    rows = 11;
    vi.advanceTimersByTime(3_500);
    // stale: answered at once, and exactly one recount starts however many ask
    const asked = [cachedCount('user|a', count), cachedCount('user|a', count), cachedCount('user|a', count)];
    expect(await Promise.all(asked)).toEqual([10, 10, 10]);
    expect(count).toHaveBeenCalledTimes(2);
    expect(await cachedCount('user|a', count)).toBe(11);
  });

  it('a write forgets the total: the next request waits for a fresh count', async () => {
    let rows = 1;
    const count = vi.fn(async () => rows);
    expect(await cachedCount('villager|x', count)).toBe(1);
    rows = 2;
    forgetCounts('villager');
    expect(await cachedCount('villager|x', count)).toBe(2);
  });

  it('a total older than a minute is never answered', async () => {
    vi.useFakeTimers();
    let rows = 5;
    const count = vi.fn(async () => rows);
    expect(await cachedCount('post|y', count)).toBe(5);
    rows = 6;
    vi.advanceTimersByTime(61_000);
    expect(await cachedCount('post|y', count)).toBe(6);
  });
});
