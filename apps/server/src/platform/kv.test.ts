import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type KvStore, kvPrefixOf, MemoryKv, RedisKv } from './kv';

/** One contract, two stores: the in-process map and Redis (when REDIS_URL is set, as in CI). */
const stores: [string, () => KvStore][] = [['memory', () => new MemoryKv()]];
if (process.env.REDIS_URL)
  stores.push(['redis', () => new RedisKv(process.env.REDIS_URL!, `kvtest:${randomUUID()}:`)]);

describe.each(stores)('%s store', (_name, make) => {
  const kv = make();
  afterAll(() => kv.close());

  it('sets, gets and deletes', async () => {
    await kv.set('a', '1', 60);
    expect(await kv.get('a')).toBe('1');
    await kv.del('a');
    expect(await kv.get('a')).toBeNull();
  });

  it('getMany answers several keys in order, null for the missing', async () => {
    await kv.set('m1', 'one', 60);
    await kv.set('m3', 'three', 60);
    expect(await kv.getMany(['m1', 'm2', 'm3'])).toEqual(['one', null, 'three']);
    expect(await kv.getMany([])).toEqual([]);
  });

  it('take reads a value once', async () => {
    await kv.set('once', 'x', 60);
    expect(await kv.take('once')).toBe('x');
    expect(await kv.take('once')).toBeNull();
  });

  it('setIfAbsent has exactly one winner among racers', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => kv.setIfAbsent('race', '1', 60)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('incr counts from one', async () => {
    expect(await kv.incr('n', 60)).toBe(1);
    expect(await kv.incr('n', 60)).toBe(2);
    expect(await kv.get('n')).toBe('2');
  });
});

describe('memory store expiry', () => {
  it('forgets values after their time to live, and incr keeps the first expiry', async () => {
    vi.useFakeTimers();
    try {
      const kv = new MemoryKv();
      await kv.set('k', 'v', 5);
      await kv.incr('c', 5);
      vi.advanceTimersByTime(4000);
      await kv.incr('c', 5);
      expect(await kv.get('k')).toBe('v');
      vi.advanceTimersByTime(1500);
      expect(await kv.get('k')).toBeNull();
      expect(await kv.get('c')).toBeNull();
      await kv.close();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the namespace of a deployment in a shared Redis', () => {
  it('is one per database identity (see sign-out-instances.test.ts), or the configured prefix', () => {
    const a = kvPrefixOf({}, '6f1c7c4e-0d7a-4a53-9d43-0b8f3c1d2e11');
    expect(a).toMatch(/^smart:[0-9a-f]{12}:$/);
    expect(kvPrefixOf({}, '6f1c7c4e-0d7a-4a53-9d43-0b8f3c1d2e11')).toBe(a);
    expect(kvPrefixOf({}, '0b8f3c1d-0d7a-4a53-9d43-6f1c7c4e2e11')).not.toBe(a);
    expect(kvPrefixOf({ REDIS_PREFIX: 'prod:' }, 'anything')).toBe('prod:');
  });
});
