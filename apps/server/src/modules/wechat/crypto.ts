import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * WeChat's callback signatures and its safe mode's message encryption (消息加解密), as documented:
 * - `signature` = sha1 of token, timestamp and nonce sorted and joined;
 * - `msg_signature` = sha1 of token, timestamp, nonce and the encrypted text sorted and joined;
 * - the key is the 43-character EncodingAESKey with `=` added, base64-decoded (32 bytes), the IV its first 16;
 *   the text is AES-256-CBC over 16 random bytes, the message's length (4 bytes, network order), the message
 *   and the AppID, padded PKCS#7 to a multiple of 32 bytes.
 */

export const sha1Signature = (...parts: string[]) =>
  createHash('sha1')
    .update([...parts].sort().join(''))
    .digest('hex');

/** Whether `given` is the signature of `parts`, compared in constant time. */
export function signatureMatches(given: unknown, ...parts: string[]): boolean {
  if (typeof given !== 'string' || !/^[0-9a-f]{40}$/i.test(given)) return false;
  return timingSafeEqual(Buffer.from(given.toLowerCase()), Buffer.from(sha1Signature(...parts)));
}

const keyOf = (aesKey: string) => {
  const key = Buffer.from(`${aesKey}=`, 'base64');
  if (key.length !== 32) throw new Error('an EncodingAESKey is 43 base64 characters (32 bytes)');
  return key;
};

const BLOCK = 32;

/** The safe mode's encrypted text (base64) of `message` for `appId`. */
export function wxEncrypt(aesKey: string, appId: string, message: string, random = randomBytes(16)): string {
  const key = keyOf(aesKey);
  const body = Buffer.from(message, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length, 0);
  const plain = Buffer.concat([random, length, body, Buffer.from(appId, 'utf8')]);
  const pad = BLOCK - (plain.length % BLOCK);
  const padded = Buffer.concat([plain, Buffer.alloc(pad, pad)]);
  const cipher = createCipheriv('aes-256-cbc', key, key.subarray(0, 16));
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(padded), cipher.final()]).toString('base64');
}

/** The message inside an encrypted text, or null when it is not one of `appId`'s (or not WeChat's format). */
export function wxDecrypt(aesKey: string, appId: string, encrypted: string): string | null {
  try {
    const key = keyOf(aesKey);
    const decipher = createDecipheriv('aes-256-cbc', key, key.subarray(0, 16));
    decipher.setAutoPadding(false);
    const plain = Buffer.concat([decipher.update(Buffer.from(encrypted, 'base64')), decipher.final()]);
    const pad = plain[plain.length - 1];
    if (pad < 1 || pad > BLOCK || pad > plain.length) return null;
    const content = plain.subarray(16, plain.length - pad);
    if (content.length < 4) return null;
    const length = content.readUInt32BE(0);
    if (4 + length > content.length) return null;
    const from = content.subarray(4 + length).toString('utf8');
    if (from !== appId) return null;
    return content.subarray(4, 4 + length).toString('utf8');
  } catch {
    return null;
  }
}
