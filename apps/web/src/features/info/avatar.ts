/** The avatar rule of spec §5, checked in the browser before anything is uploaded: jpg or png, ≤ 500 KB. */
import { AVATAR_MAX_BYTES } from '@smart/contracts/core';

const TYPES = new Set(['image/jpeg', 'image/png']);

/** Why a chosen file cannot be the avatar ('type' or 'size'), or null. */
export function avatarProblem(file: { name: string; type: string; size: number }): 'type' | 'size' | null {
  const byName = /\.(jpe?g|png)$/i.test(file.name);
  if (!(TYPES.has(file.type) || (!file.type && byName)) || !byName) return 'type';
  if (file.size > AVATAR_MAX_BYTES) return 'size';
  return null;
}
