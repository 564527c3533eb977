import { describe, expect, it } from 'vitest';
import { coalescing } from './coalesce';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('coalescing', () => {
  it('a lone item runs at once; those that arrive meanwhile run as the next batch, by key', async () => {
    const batches: string[][] = [];
    const run = coalescing<string, string>(async (items) => {
      batches.push(items);
      await tick();
      return items.map((i) => i.toUpperCase());
    });
    const first = run('k', 'a');
    const rest = ['b', 'c', 'd'].map((i) => run('k', i));
    const other = run('other key', 'x');
    expect(await Promise.all([first, ...rest, other])).toEqual(['A', 'B', 'C', 'D', 'X']);
    expect(batches).toEqual([['a'], ['x'], ['b', 'c', 'd']]);
  });

  it('each item gets its own error; an error of the batch itself is every one of its items', async () => {
    let calls = 0;
    const run = coalescing<number, number>(async (items) => {
      calls++;
      if (items.includes(99)) throw new Error('batch failed');
      return items.map((n) => (n < 0 ? new Error(`negative ${n}`) : n * 2));
    });
    const lone = run('k', 1);
    const answers = await Promise.allSettled([lone, run('k', 2), run('k', -3), run('k', 4)]);
    expect(answers.map((a) => (a.status === 'fulfilled' ? a.value : (a.reason as Error).message))).toEqual([
      2,
      4,
      'negative -3',
      8,
    ]);
    const failed = await Promise.allSettled([run('k', 5), run('k', 99), run('k', 6)]);
    expect(failed.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(calls).toBe(4);
  });

  it('at most `max` items a batch, at most `inFlight` batches of a key at once', async () => {
    let running = 0;
    let most = 0;
    const sizes: number[] = [];
    const run = coalescing<number, number>(
      async (items) => {
        running++;
        most = Math.max(most, running);
        sizes.push(items.length);
        await tick();
        running--;
        return items;
      },
      { max: 3, inFlight: 2 },
    );
    await Promise.all(Array.from({ length: 10 }, (_, i) => run('k', i)));
    expect(most).toBe(2);
    expect(Math.max(...sizes)).toBe(3);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(10);
  });

  it('a result may be a promise: the next batch starts before it settles', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const run = coalescing<string, string>(async (items) => {
      order.push(`run ${items.join('')}`);
      await tick();
      return items.map((i) =>
        i === 'a'
          ? held.then(() => {
              order.push('a answered');
              return 'A';
            })
          : i.toUpperCase(),
      );
    });
    const a = run('k', 'a');
    const b = run('k', 'b');
    expect(await b).toBe('B');
    release();
    expect(await a).toBe('A');
    expect(order).toEqual(['run a', 'run b', 'a answered']);
  });
});
