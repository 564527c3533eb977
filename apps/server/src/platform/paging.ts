import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page } from '@smart/contracts';
import { z } from 'zod';

/** `current` + `size` (most lists); defaults 1 and 10, size capped. */
export const PageQuery = z.object({
  current: z.coerce.number().int().min(1).max(1_000_000).default(1),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});

export function toPage<T>(records: T[], total: number, current: number, size: number): Page<T> {
  return { records, total, size, current, pages: Math.ceil(total / size) };
}
