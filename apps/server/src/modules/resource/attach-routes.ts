import { ATTACH_THUMB_PX } from '@smart/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { notFound } from '../../platform/http/errors';
import { S3Storage } from '../../platform/storage-s3';
import { upload } from './tables';
import { UPLOAD_KINDS } from './uploads';

/**
 * Thumbnails of attachments that are images (`GET /api/dfem-resource/attach/thumb/<uuid>.png`): made from
 * the stored file wherever its upload row says it lives (the disk, or its bucket), at most ATTACH_THUMB_PX
 * on the longer side, as JPEG. Served like the files themselves, without a token (an <img> cannot send
 * one), to whoever holds the random name; made on request and kept by the browser for a day.
 */

/** the source files a thumbnail is made from: at most this many bytes, and pixels */
const SOURCE_MAX_BYTES = 64 * 1024 * 1024;
const SOURCE_MAX_PIXELS = 40_000_000;

export async function attachRoutes(app: FastifyInstance) {
  async function sourceOf(name: string): Promise<Buffer | null> {
    const { folder, served } = UPLOAD_KINDS.files;
    const key = `${folder}/${name}`;
    const [row] = await app.deps.db
      .select({ ossId: upload.ossId })
      .from(upload)
      .where(eq(upload.path, `${served}${name}`))
      .limit(1);
    const store = await app.storageConfigs.forConfig(row?.ossId);
    const size = await store.size(key).catch(() => null);
    if (size === null || size > SOURCE_MAX_BYTES) return null;
    if (store instanceof S3Storage) return store.get(key).catch(() => null);
    const stream = app.deps.storage.open(key);
    if (!stream) return null;
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  app.get<{ Params: { name: string } }>(
    '/attach/thumb/:name',
    { config: { public: true } },
    async (req, reply) => {
      if (!/^[0-9a-f-]{36}\.(png|jpg)$/.test(req.params.name)) throw notFound();
      const source = await sourceOf(req.params.name);
      if (!source) throw notFound();
      const thumb = await sharp(source, { limitInputPixels: SOURCE_MAX_PIXELS })
        .rotate()
        .resize(ATTACH_THUMB_PX, ATTACH_THUMB_PX, { fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 80 })
        .toBuffer()
        .catch(() => null);
      if (!thumb) throw notFound();
      return reply
        .header('content-type', 'image/jpeg')
        .header('cache-control', 'private, max-age=86400')
        .send(thumb);
    },
  );
}
