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
  it('a total whose tables are unchanged is not recounted; once they change, one recount runs', async () => {
    vi.useFakeTimers();
    let rows = 7;
    let version: string | undefined = 'v1';
    const count = vi.fn(async () => rows);
    expect(await cachedCount('villager|z', count, () => version)).toBe(7);
    vi.advanceTimersByTime(30_000);
    expect(await cachedCount('villager|z', count, () => version)).toBe(7);
    expect(count).toHaveBeenCalledTimes(1);

    rows = 8;
    version = 'v2';
    expect(await cachedCount('villager|z', count, () => version)).toBe(7); // answered, recounted beside
    expect(count).toHaveBeenCalledTimes(2);
    expect(await cachedCount('villager|z', count, () => version)).toBe(8);
  });

  it('an unchanged total is recounted in its last seconds, and while changes are not heard as before', async () => {
    vi.useFakeTimers();
    const count = vi.fn(async () => 3);
    await cachedCount('dept|a', count, () => 'v');
    vi.advanceTimersByTime(9 * 60_000);
    await cachedCount('dept|a', count, () => 'v');
    expect(count).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(58_000);
    await cachedCount('dept|a', count, () => 'v');
    expect(count).toHaveBeenCalledTimes(2);

    const unheard = vi.fn(async () => 4);
    await cachedCount('dept|b', unheard, () => undefined);
    vi.advanceTimersByTime(3_500);
    await cachedCount('dept|b', unheard, () => undefined);
    expect(unheard).toHaveBeenCalledTimes(2);
  });
});
