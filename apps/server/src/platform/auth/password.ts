import { createHash, randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** The browser sends md5 hex of the typed password (spec §5); only an argon2id hash of that is stored. */
export const MD5_HEX = /^[0-9a-f]{32}$/;

// 2 = Algorithm.Argon2id (a const enum, which isolated modules cannot import)
const options = { algorithm: 2 as const, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashSecret(secret: string): Promise<string> {
  return hash(secret, options);
}

export async function verifySecret(stored: string, secret: string): Promise<boolean> {
  try {
    return await verify(stored, secret);
  } catch {
    return false;
  }
}

/** Spent on unknown accounts so that a wrong user name costs the same time as a wrong password. */
let dummyHash: Promise<string> | undefined;
export async function burnVerify(secret: string): Promise<false> {
  dummyHash ??= hashSecret('0'.repeat(32));
  await verifySecret(await dummyHash, secret);
  return false;
}

/** Letters and digits nobody misreads (no 0/O, 1/l/I). */
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/**
 * A random initial password, shown once to the administrator who asked for it (new tenant administrator,
 * reset): 12 characters in three groups (≈ 70 bits), e.g. `Kx7m-P2qr-Ht9w`. Never a default.
 */
export function generatePassword(): string {
  const groups: string[] = [];
  for (let g = 0; g < 3; g++) {
    let group = '';
    for (let i = 0; i < 4; i++) group += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

/** What the browser sends for a typed password (spec §5: md5 hex). */
export function md5Hex(s: string): string {
  return createHash('md5').update(s).digest('hex');
}
