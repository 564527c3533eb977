import { describe, expect, it } from 'vitest';
import { newRedeemCode, normalRedeemCode, qrPngDataUrl, REDEEM_CODE_LENGTH } from './redeem';

describe('redemption codes', () => {
  it('are 10 characters a clerk cannot misread, and differ', () => {
    const codes = new Set(Array.from({ length: 2000 }, newRedeemCode));
    expect(codes.size).toBe(2000);
    for (const c of codes) expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
  });

  it('read back as typed: lower case, dashes, O for 0 and I or L for 1', () => {
    const code = '0123ABCDXY';
    expect(normalRedeemCode('o123-abcd xy')).toBe(code);
    expect(normalRedeemCode('l123abcdxy')).toBe('1123ABCDXY');
    expect(normalRedeemCode('0123ABCDX')).toBeUndefined();
    expect(normalRedeemCode('0123ABCDXU')).toBeUndefined();
    expect(normalRedeemCode("' or 1=1 --")).toBeUndefined();
    expect(REDEEM_CODE_LENGTH).toBe(10);
  });

  it('draw a PNG QR code, and refuse content past the bound', async () => {
    const url = await qrPngDataUrl('0123ABCDXY');
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    const png = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    await expect(qrPngDataUrl('x'.repeat(513))).rejects.toMatchObject({ status: 400 });
    await expect(qrPngDataUrl('')).rejects.toMatchObject({ status: 400 });
  });
});
