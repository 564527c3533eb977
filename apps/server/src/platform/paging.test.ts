import { describe, expect, it } from 'vitest';
import { forgetCounts } from './crud/count-cache';
import { PageQuery, pagedList, pageOf, pageQuery } from './paging';

/** A stand-in for an ordered Drizzle select: records the page it was cut to. */
function rowsOf<R>(all: R[]) {
  const cut: { limit?: number; offset?: number } = {};
  return {
    cut,
    rows: {
      limit(limit: number) {
        cut.limit = limit;
        return {
          offset(offset: number) {
            cut.offset = offset;
            return Promise.resolve(all.slice(offset, offset + limit));
          },
        };
      },
    },
  };
}

describe('pageQuery', () => {
  it('names the page keys by the spec conventions, defaulted and bounded as a resource list', () => {
    expect(PageQuery.parse({})).toEqual({ current: 1, size: 10 });
    expect(pageQuery('page').parse({ page: '3', size: '20' })).toEqual({ page: 3, size: 20 });
    expect(pageQuery('currentPage').parse({})).toEqual({ currentPage: 1, pageSize: 10 });
    expect(PageQuery.safeParse({ size: '201' }).success).toBe(false);
    expect(PageQuery.safeParse({ current: '0' }).success).toBe(false);
    expect(PageQuery.extend({}).strict().safeParse({ other: '1' }).success).toBe(false);
  });
});

describe('pagedList', () => {
  it('cuts the asked page, counts beside it and answers a page', async () => {
    const { cut, rows } = rowsOf([1, 2, 3, 4, 5, 6, 7]);
    const page = await pagedList(
      { current: 3, size: 3 },
      { rows, total: Promise.resolve([{ total: '7' }]), records: (r) => r.map((n) => `#${n}`) },
    );
    expect(cut).toEqual({ limit: 3, offset: 6 });
    expect(page).toEqual({ records: ['#7'], total: 7, size: 3, current: 3, pages: 3 });
  });

  it('keeps a total under its key until its resource forgets it', async () => {
    let counted = 0;
    // a thenable like a Drizzle count: it runs when awaited, and not at all while its total is remembered
    const total = (): PromiseLike<{ total: number }[]> => ({
      // biome-ignore lint/suspicious/noThenProperty: a Drizzle query is a thenable
      then: (ok, fail) => Promise.resolve([{ total: ++counted }]).then(ok, fail),
    });
    const read = () =>
      pagedList(
        { current: 1, size: 10 },
        { rows: rowsOf([]).rows, total: total(), cacheTotalAs: 'paging-test|x' },
      );
    expect((await read()).total).toBe(1);
    expect((await read()).total).toBe(1);
    forgetCounts('paging-test');
    expect((await read()).total).toBe(2);
  });
});

describe('pageOf', () => {
  it('pages rows already in memory', () => {
    expect(pageOf(['a', 'b', 'c'], { current: 2, size: 2 })).toEqual({
      records: ['c'],
      total: 3,
      size: 2,
      current: 2,
      pages: 2,
    });
  });
});
