/**
 * The materials screen's check before an upload, pure: the kind of file its first bytes show (as the server's
 * `materialKind` reads them — never the file's name), and WeChat's quotas of permanent materials (100 000
 * images, 1 000 of each other type: WeChat's documented limits, facts of the platform).
 */
import { WX_MATERIAL, wxMaterialProblem } from '@smart/contracts/wechat-rules';

/** how many bytes of a file the check reads */
export const HEAD_BYTES = 64;

const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

/** The kind of file `head` (its first bytes) begins, of those WeChat's materials take, or null. */
export function materialKindOf(head: Uint8Array, size: number): string | null {
  const at = (k: number) => head[k] ?? -1;
  if (at(0) === 0x89 && ascii(head, 1, 4) === 'PNG' && at(4) === 0x0d && at(5) === 0x0a) return 'png';
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'jpg';
  const text = ascii(head, 0, 16);
  if (text.startsWith('GIF87a') || text.startsWith('GIF89a')) return 'gif';
  if (text.startsWith('BM') && size > 26) return 'bmp';
  if (text.startsWith('#!AMR')) return 'amr';
  if (text.startsWith('RIFF') && text.slice(8, 12) === 'WAVE') return 'wav';
  if (text.startsWith('ID3') || (at(0) === 0xff && (at(1) & 0xe0) === 0xe0)) return 'mp3';
  const wma = [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11];
  if (wma.every((v, k) => at(k) === v)) return 'wma';
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') {
    const box = ((at(0) << 24) | (at(1) << 16) | (at(2) << 8) | at(3)) >>> 0;
    if (box >= 16 && /^(?:isom|iso[2-9]|mp41|mp42|avc1|dash|M4V |mmp4|MSNV|f4v )$/.test(ascii(head, 8, 12)))
      return 'mp4';
  }
  return null;
}

/** What WeChat would refuse in `file` as a material of `type` (null: nothing), read from its first bytes. */
export async function materialFileProblem(type: string, file: Blob) {
  const head = new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
  return wxMaterialProblem(type, materialKindOf(head, file.size), file.size);
}

/** WeChat's quotas of permanent materials, by material type, and the count's key in `wxMaterial/count`. */
export const WX_MATERIAL_QUOTA: Readonly<Record<string, { quota: number; counted: string }>> = {
  [WX_MATERIAL.image]: { quota: 100_000, counted: 'image' },
  [WX_MATERIAL.voice]: { quota: 1_000, counted: 'voice' },
  [WX_MATERIAL.video]: { quota: 1_000, counted: 'video' },
};
