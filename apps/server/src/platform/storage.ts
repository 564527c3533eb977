import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry } from 'yauzl';

/**
 * Where uploaded files live: local disk under DATA_DIR/uploads by default. Keys are `<folder>/<name>`
 * made by the server (never a client's path), and every read checks the key stays inside the root.
 */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  /** a large file written as it arrives (a video); nothing is left behind when the source fails */
  putStream(key: string, source: AsyncIterable<Buffer>): Promise<void>;
  remove(key: string): Promise<void>;
  /** null when there is no such file; `range`: bytes start..end, both included */
  open(key: string, range?: { start: number; end: number }): Readable | null;
  /** the file's size in bytes, null when there is no such file */
  size(key: string): Promise<number | null>;
}

export class LocalStorage implements FileStorage {
  private readonly root: string;
  constructor(dataDir: string) {
    this.root = resolve(dataDir, 'uploads');
  }
  private path(key: string) {
    const p = resolve(join(this.root, key));
    if (!p.startsWith(this.root + sep)) throw new Error('storage key escapes the root');
    return p;
  }
  async put(key: string, data: Buffer) {
    const p = this.path(key);
    await mkdir(dirname(p), { recursive: true });
    await writeFile(p, data);
  }
  async putStream(key: string, source: AsyncIterable<Buffer>) {
    const p = this.path(key);
    await mkdir(dirname(p), { recursive: true });
    try {
      await pipeline(Readable.from(source), createWriteStream(p));
    } catch (e) {
      await rm(p, { force: true });
      throw e;
    }
  }
  async remove(key: string) {
    await rm(this.path(key), { force: true });
  }
  open(key: string, range?: { start: number; end: number }) {
    const p = this.path(key);
    return existsSync(p) ? createReadStream(p, range) : null;
  }
  async size(key: string) {
    const s = await stat(this.path(key)).catch(() => null);
    return s?.isFile() ? s.size : null;
  }
}

/** The image kind a buffer really holds, by its first bytes; null for anything else. */
export function imageKind(buf: Buffer): 'png' | 'jpg' | null {
  if (buf.length > 8 && buf.readUInt32BE(0) === 0x89504e47 && buf.readUInt32BE(4) === 0x0d0a1a0a)
    return 'png';
  if (buf.length > 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpg';
  return null;
}

/** What an attachment may be, as its content shows it: the extension it is stored and served with. */
export type AttachmentKind = 'pdf' | 'docx' | 'xlsx' | 'pptx' | 'png' | 'jpg';

/** An Office document is a zip whose directory names its main part (read without inflating anything). */
const OFFICE_PARTS: [string, AttachmentKind][] = [
  ['word/document.xml', 'docx'],
  ['xl/workbook.xml', 'xlsx'],
  ['ppt/presentation.xml', 'pptx'],
];

/** The attachment kind a buffer really holds, by its content; null for anything else (a program, a script). */
export async function attachmentKind(buf: Buffer): Promise<AttachmentKind | null> {
  const image = imageKind(buf);
  if (image) return image;
  if (buf.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (buf.length < 4 || buf.readUInt32LE(0) !== 0x04034b50) return null;
  const names = await zipEntryNames(buf).catch(() => null);
  if (!names?.has('[Content_Types].xml')) return null;
  return OFFICE_PARTS.find(([part]) => names.has(part))?.[1] ?? null;
}

/** The names in a zip's central directory (at most 10 000: a document has a few dozen). */
async function zipEntryNames(buf: Buffer): Promise<Set<string>> {
  const zip = await yauzl.fromBufferPromise(buf, { lazyEntries: true });
  const names = new Set<string>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (e: Entry) => {
      names.add(e.fileName);
      if (names.size > 10_000) {
        zip.close();
        resolve();
      } else zip.readEntry();
    });
    zip.once('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  return names;
}

/** What a video may be, as its content shows it: the extension it is stored and served with. */
export type VideoKind = 'mp4' | 'webm';

/**
 * The video kind a buffer really holds (its first bytes are enough): an ISO base media file (MP4: a `ftyp`
 * box first, of a brand a browser plays) or WebM (an EBML header whose DocType is `webm`); null otherwise.
 */
export function videoKind(head: Buffer): VideoKind | null {
  if (head.length >= 12 && head.subarray(4, 8).toString('latin1') === 'ftyp') {
    const size = head.readUInt32BE(0);
    const brand = head.subarray(8, 12).toString('latin1');
    // the box is at least its header and brands; QuickTime (qt) and images (heic, avif) are not playable video
    if (size >= 16 && /^(?:isom|iso[2-9]|mp41|mp42|avc1|dash|M4V |mmp4|MSNV|f4v )$/.test(brand)) return 'mp4';
    return null;
  }
  if (head.length >= 8 && head.readUInt32BE(0) === 0x1a45dfa3) {
    // the DocType element (0x4282) within the EBML header names the flavour: webm (matroska is not played)
    const header = head.subarray(0, Math.min(head.length, 64));
    const at = header.indexOf(Buffer.from([0x42, 0x82]));
    if (at > 0 && header.subarray(at + 3, at + 7).toString('latin1') === 'webm') return 'webm';
  }
  return null;
}

/**
 * What any place files are kept in offers (the local disk, an S3 bucket: storage-s3.ts); a bucket's files are
 * read by browsers from the bucket itself (`link`), the local disk's through the product's served paths.
 */
export type ObjectStorage = Omit<FileStorage, 'open'> & {
  link?: (key: string, opts?: { contentDisposition?: string }) => Promise<string>;
};
