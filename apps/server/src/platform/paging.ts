import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page, pagingKeys, type ResourceDef } from '@smart/contracts';
import { z } from 'zod';
import { cachedCount } from './crud/count-cache';

/**
 * Paged lists that are not engine resources (the engine pages its own, `crud/engine.ts`): the query keys of
 * a page, the page and its total read together, and the answer of spec §7.
 */

/** The spec's conventions for the paging keys of a list (a definition's `paging`). */
export type PagingConvention = NonNullable<ResourceDef['paging']>;
type PagingKeys = {
  current: ['current', 'size'];
  page: ['page', 'size'];
  currentPage: ['currentPage', 'pageSize'];
};

const pageNumber = z.coerce.number().int().min(1).max(1_000_000).default(1);
const pageSize = z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE);

/**
 * The paging keys of a convention (`pagingKeys`), checked as the engine checks a resource's: the page from
 * 1 (default 1), the size from 1 to MAX_PAGE_SIZE (default 10). `.extend` it with the list's filters, and
 * `.strict()` it where any other key is refused. A list of another convention than `current` asks
 * `pagedList` for `{ current: q.page, size: q.size }` (or `q.currentPage`, `q.pageSize`).
 */
export function pageQuery<P extends PagingConvention = 'current'>(paging?: P) {
  const [pageKey, sizeKey] = pagingKeys({ paging });
  return z.object({ [pageKey]: pageNumber, [sizeKey]: pageSize }) as z.ZodObject<
    { [K in PagingKeys[P][0]]: typeof pageNumber } & { [K in PagingKeys[P][1]]: typeof pageSize }
  >;
}

/** `current` + `size`: the keys of most lists. */
export const PageQuery = pageQuery();

/** The page asked for, by number (from 1) and size, whatever the list's keys are called. */
export interface PageAsked {
  current: number;
  size: number;
}

export function toPage<T>(records: T[], total: number, current: number, size: number): Page<T> {
  return { records, total, size, current, pages: Math.ceil(total / size) };
}

/** A list's query before its page is cut: limited and offset here (a Drizzle select, ordered). */
interface Pageable<R> {
  limit(limit: number): { offset(offset: number): PromiseLike<R[]> };
}

export interface PagedRead<R, T> {
  /** the list's rows, filtered and ordered (ending with a unique column, so pages do not overlap) */
  rows: Pageable<R>;
  /** their count, `select({ total: count() })` over the same condition: read beside the page */
  total: PromiseLike<{ total: number | string }[]>;
  /**
   * remember the total for a few seconds under this key (`countKey`, count-cache.ts), where the writes of
   * its rows drop it (`forgetCounts` of the key's first part)
   */
  cacheTotalAs?: string;
  /** the answer's records, made from the page's rows (names looked up, times formatted) */
  records?: (rows: R[]) => T[] | Promise<T[]>;
}

/** One page of a list and its total, read at once, answered as a page. */
export async function pagedList<R, T = R>(asked: PageAsked, read: PagedRead<R, T>): Promise<Page<T>> {
  const count = async () => {
    const [row] = await read.total;
    return Number(row.total);
  };
  const [rows, total] = await Promise.all([
    read.rows.limit(asked.size).offset((asked.current - 1) * asked.size),
    read.cacheTotalAs ? cachedCount(read.cacheTotalAs, count) : count(),
  ]);
  const records = read.records ? await read.records(rows) : (rows as unknown as T[]);
  return toPage(records, total, asked.current, asked.size);
}

/** One page of rows already in memory (a list computed whole, as a station's yield by period). */
export function pageOf<T>(all: T[], asked: PageAsked): Page<T> {
  const start = (asked.current - 1) * asked.size;
  return toPage(all.slice(start, start + asked.size), all.length, asked.current, asked.size);
}
