import { randomInt } from 'node:crypto';
import QRCode from 'qrcode';
import { badRequest } from './http/errors';

/**
 * What the points mall's exchanges and the tourism bookings share: a redemption code (兑换码 / 核销码) the
 * counter staff scan or type to 核销, and its QR code.
 *
 * A code is 10 characters of Crockford's base-32 alphabet (no I, L, O, U: nothing a clerk misreads), drawn
 * from the system's CSPRNG — 50 bits, so guessing a live code is hopeless; the tables holding codes declare
 * them unique per tenant, and a clash (once in ~10¹⁵) is a unique-key error the caller retries.
 */
export const REDEEM_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const REDEEM_CODE_LENGTH = 10;

export function newRedeemCode(): string {
  let code = '';
  for (let i = 0; i < REDEEM_CODE_LENGTH; i++) code += REDEEM_ALPHABET[randomInt(REDEEM_ALPHABET.length)];
  return code;
}

/**
 * A typed or scanned code as stored: upper case, spaces and dashes dropped, the letters a clerk may type for
 * a digit read as that digit (O → 0, I and L → 1); undefined when it cannot be a code.
 */
export function normalRedeemCode(typed: string): string | undefined {
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return code.length === REDEEM_CODE_LENGTH && [...code].every((c) => REDEEM_ALPHABET.includes(c))
    ? code
    : undefined;
}

/** The most a QR code is asked to hold (a URL or a code; the spec's qrcode/getQRCodeBase64 `content`). */
export const QR_CONTENT_MAX = 512;

/** A PNG data URL of `content` as a QR code (error correction M, 4-module quiet zone); a 400 past the bound. */
export async function qrPngDataUrl(content: string, width = 256): Promise<string> {
  if (!content || content.length > QR_CONTENT_MAX) throw badRequest();
  return QRCode.toDataURL(content, { errorCorrectionLevel: 'M', margin: 4, width, type: 'image/png' });
}
