import { ApiError } from './http/errors';
import type { KvStore } from './kv';

/**
 * Counts calls per key in the shared store (every instance shares the count) and refuses with 429 past
 * `limit` calls in a window of `windowSeconds` that starts with the first call.
 */
export async function throttle(kv: KvStore, key: string, limit: number, windowSeconds: number) {
  if ((await kv.incr(`throttle:${key}`, windowSeconds)) > limit) throw new ApiError(429, 'tooManyRequests');
}
