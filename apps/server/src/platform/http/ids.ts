import { isId, isIdList } from '@smart/contracts';
import { z } from 'zod';

/** Query and body schemas for row ids (bigints): 1–19 digits within 2^63 − 1. */
export const idString = z.string().refine(isId, { message: 'invalid id' });
export const idList = z.array(idString).max(5000);
/** `1,2,3` → ['1','2','3']; empty → [] */
export const csvIds = z
  .string()
  .refine(isIdList, { message: 'invalid ids' })
  .transform((s) => (s ? s.split(',') : []));
/** `1,2,3` kept as text (at least one id) */
export const csvIdText = z.string().refine((s) => s !== '' && isIdList(s), { message: 'invalid ids' });
