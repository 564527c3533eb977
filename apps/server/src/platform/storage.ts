import { createReadStream, existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where uploaded files live: local disk under DATA_DIR/uploads by default. Keys are `<folder>/<name>`
 * made by the server (never a client's path), and every read checks the key stays inside the root.
 */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  /** null when there is no such file */
  open(key: string): Readable | null;
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
  open(key: string) {
    const p = this.path(key);
    return existsSync(p) ? createReadStream(p) : null;
  }
}

/** The image kind a buffer really holds, by its first bytes; null for anything else. */
export function imageKind(buf: Buffer): 'png' | 'jpg' | null {
  if (buf.length > 8 && buf.readUInt32BE(0) === 0x89504e47 && buf.readUInt32BE(4) === 0x0d0a1a0a)
    return 'png';
  if (buf.length > 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpg';
  return null;
}
