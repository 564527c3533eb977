import { randomUUID } from 'node:crypto';
import { AVATAR_MAX_BYTES } from '@smart/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type RequestContext, requireCtx } from '../../platform/auth/context';
import type { MountedResource } from '../../platform/crud/binding';
import { ok } from '../../platform/http/envelope';
import { FieldInputError, notFound } from '../../platform/http/errors';
import { runPeriodically } from '../../platform/periodic';
import {
  type AttachmentKind,
  attachmentKind,
  imageKind,
  type VideoKind,
  videoKind,
} from '../../platform/storage';
import { DEFAULT_AVATAR_SVG } from '../system/family-client';
import { isProviderFailure, StorageConfigs, storageRefused } from './oss';
import { AVATAR_PLACE, UPLOAD_KINDS, type UploadKind, Uploads } from './uploads';

declare module 'fastify' {
  interface FastifyInstance {
    /** who may upload what, the quotas, and the sweep of files no record names (uploads.ts) */
    uploads: Uploads;
    /** the storage configs: where a tenant's uploads go, and where a stored file is read from (oss.ts) */
    storageConfigs: StorageConfigs;
  }
}

/**
 * Uploaded files, whichever area's records keep them: avatars (`/api/dfem-resource`: the user's own), and
 * the images, attachments and videos of records' fields (`/api/dfem-hope-manage/file/…`, the paths the
 * field kinds accept). Each is checked by content, not by name or declared type, stored under a random
 * name, written down against the uploader's quotas (uploads.ts), and served without a token (an <img> or
 * <video> cannot send one) to whoever holds the name.
 */

const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
const ATTACHMENT_TYPES: Record<AttachmentKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  png: 'image/png',
  jpg: 'image/jpeg',
};
const VIDEO_TYPES: Record<VideoKind, string> = { mp4: 'video/mp4', webm: 'video/webm' };
/** the bytes a video's kind is read from */
const VIDEO_HEAD_BYTES = 64;

type Text = { zh: string; en: string };
/** What one kind of buffered upload accepts: its size, how its content is recognised, what it answers. */
interface UploadRules<K extends string> {
  maxBytes: number;
  kindOf: (buf: Buffer) => K | null | Promise<K | null>;
  messages: { none: Text; tooBig: Text; badKind: Text };
}

/**
 * Mounts the upload routes on the root app with the resources this server mounted (what an upload may be
 * for, and what the sweep reads), and starts this server's sweep.
 */
export async function fileRoutes(app: FastifyInstance, resources: ReadonlyMap<string, MountedResource>) {
  const { storage, config, db } = app.deps;
  const configs = new StorageConfigs(db, storage, config.DATA_DIR);
  const uploads = new Uploads({ ...app.deps, configs }, resources);
  app.decorate('uploads', uploads);
  app.decorate('storageConfigs', configs);

  /**
   * Answers a stored file: from the disk (`send`: the product serves it), or — when it lives in a bucket —
   * a redirect to the address made for it now (public, or signed for a while: never cached longer).
   */
  async function serve(
    reply: FastifyReply,
    path: string,
    key: string,
    send: () => unknown,
    contentDisposition?: string,
  ) {
    const where = await configs.locate(path, key, { contentDisposition });
    if ('local' in where) return send();
    return reply.header('cache-control', 'no-store').redirect(where.url, 302);
  }

  /**
   * One uploaded file, at most `maxBytes` and within the caller's quotas, of a kind its content shows
   * (`kindOf`), stored under a random name in `place` and written down. An empty, cut-off or non-multipart
   * body holds no file: the same 400 as a form without one.
   */
  async function acceptUpload<K extends string>(
    req: FastifyRequest,
    ctx: RequestContext,
    opts: UploadRules<K> & { place: { folder: string; served: string } },
  ) {
    const room = await uploads.roomBefore(ctx);
    const limit = Math.min(opts.maxBytes, room.bytes);
    const file = await req.file({ limits: { fileSize: limit + 1, files: 1 } }).catch(() => undefined);
    if (!file) throw new FieldInputError('file', opts.messages.none);
    const buf = await file.toBuffer().catch(() => null);
    if (!buf || buf.length > limit || file.file.truncated)
      throw limit < opts.maxBytes ? room.refusal() : new FieldInputError('file', opts.messages.tooBig);
    const kind = await opts.kindOf(buf);
    if (!kind) throw new FieldInputError('file', opts.messages.badKind);
    const name = `${randomUUID()}.${kind}`;
    const url = `${opts.place.served}${name}`;
    const target = await configs.forUpload(ctx.tenantId);
    await target.store.put(`${opts.place.folder}/${name}`, buf).catch((e) => {
      throw storageRefused(e);
    });
    await uploads.keep(ctx, url, buf.length, target.ossId);
    return { url, name, originalName: file.filename };
  }

  /** A record's file: the caller says what it is for (`?resource=&field=`) and may write that field. */
  async function acceptFieldUpload<K extends string>(
    req: FastifyRequest,
    kind: UploadKind,
    opts: UploadRules<K>,
  ) {
    const ctx = requireCtx(req);
    await uploads.requirePurpose(req, kind);
    return acceptUpload(req, ctx, { ...opts, place: UPLOAD_KINDS[kind] });
  }

  await app.register(
    async (sub) => {
      /** Avatars (spec §5: jpg or png, at most 500 KB): the user's own, no screen's code needed. */
      const putAvatar = (req: FastifyRequest) =>
        acceptUpload(req, requireCtx(req), {
          maxBytes: AVATAR_MAX_BYTES,
          place: AVATAR_PLACE,
          kindOf: imageKind,
          messages: {
            none: { zh: '请选择头像图片', en: 'please choose an avatar image' },
            tooBig: { zh: '头像图片大小不能超过 500KB', en: 'The avatar must be at most 500 KB' },
            badKind: { zh: '头像只能是 JPG 或 PNG 图片', en: 'The avatar must be a JPG or PNG image' },
          },
        });

      sub.post('/file/avatar', async (req) => {
        const { url, name } = await putAvatar(req);
        return ok(req, { url, name });
      });

      /**
       * The family's upload (its personal-info screen posts the avatar here): the same checks and storage,
       * answered as its `BladeFile` (`link` is what the screen keeps).
       */
      sub.post('/oss/endpoint/put-file', async (req) => {
        const { url, name, originalName } = await putAvatar(req);
        return ok(req, { link: url, domain: '', name: `avatar/${name}`, originalName, attachId: null });
      });

      /** The avatar of a user without one, for the family's client (family-client.ts): public, as avatars are. */
      sub.get('/avatar/default.svg', { config: { public: true } }, async (_req, reply) =>
        reply
          .header('content-type', 'image/svg+xml')
          .header('cache-control', 'public, max-age=86400')
          .send(DEFAULT_AVATAR_SVG),
      );

      sub.get<{ Params: { name: string } }>(
        '/file/avatar/:name',
        { config: { public: true } },
        async (req, reply) => {
          const m = /^([0-9a-f-]{36})\.(png|jpg)$/.exec(req.params.name);
          if (!m) throw notFound();
          const path = `${AVATAR_PLACE.served}${req.params.name}`;
          return serve(reply, path, `${AVATAR_PLACE.folder}/${req.params.name}`, () => {
            const stream = storage.open(`${AVATAR_PLACE.folder}/${req.params.name}`);
            if (!stream) throw notFound();
            return reply
              .header('content-type', m[2] === 'png' ? 'image/png' : 'image/jpeg')
              .header('cache-control', 'public, max-age=31536000, immutable')
              .send(stream);
          });
        },
      );
    },
    { prefix: '/api/dfem-resource' },
  );

  await app.register(
    async (sub) => {
      /** Photos of records (an `image` field: a villager's photo, evidence, visit photos): JPG or PNG. */
      sub.post('/file/image', async (req) => {
        const { url, name } = await acceptFieldUpload(req, 'image', {
          maxBytes: IMAGE_MAX_BYTES,
          kindOf: imageKind,
          messages: {
            none: { zh: '请选择图片', en: 'please choose an image' },
            tooBig: { zh: '图片大小不能超过 2MB', en: 'The image must be at most 2 MB' },
            badKind: { zh: '只能上传 JPG 或 PNG 图片', en: 'Only JPG or PNG images' },
          },
        });
        return ok(req, { url, name });
      });

      /**
       * Attachments of records (a `files` field): PDF, Word, Excel, PowerPoint or an image, at most 20 MB,
       * recognised by content (a renamed program is refused).
       */
      sub.post('/file/attach', async (req) => {
        const { url, name, originalName } = await acceptFieldUpload(req, 'files', {
          maxBytes: ATTACHMENT_MAX_BYTES,
          kindOf: attachmentKind,
          messages: {
            none: { zh: '请选择文件', en: 'please choose a file' },
            tooBig: { zh: '文件大小不能超过 20MB', en: 'The file must be at most 20 MB' },
            badKind: {
              zh: '只能上传 PDF、Word、Excel、PowerPoint 文件或 JPG、PNG 图片',
              en: 'Only PDF, Word, Excel, PowerPoint files or JPG, PNG images',
            },
          },
        });
        return ok(req, { url, name, originalName });
      });

      /**
       * A video (a `video` field: care videos): MP4 or WebM by its first bytes, at most VIDEO_MAX_MB (config)
       * and within the quotas, written to storage as it arrives (never held whole in memory); a renamed
       * program or text is refused before a byte is stored, and a file past a limit is removed.
       */
      const videoMaxMb = config.VIDEO_MAX_MB;
      const videoMaxBytes = videoMaxMb * 1024 * 1024;
      sub.post('/file/video', async (req) => {
        const ctx = requireCtx(req);
        await uploads.requirePurpose(req, 'video');
        const messages = {
          none: { zh: '请选择视频文件', en: 'please choose a video file' },
          tooBig: {
            zh: `视频大小不能超过 ${videoMaxMb}MB`,
            en: `The video must be at most ${videoMaxMb} MB`,
          },
          badKind: { zh: '只能上传 MP4 或 WebM 视频', en: 'Only MP4 or WebM videos' },
        };
        const room = await uploads.roomBefore(ctx);
        const limit = Math.min(videoMaxBytes, room.bytes);
        const pastLimit = () =>
          limit < videoMaxBytes ? room.refusal() : new FieldInputError('file', messages.tooBig);
        const file = await req.file({ limits: { fileSize: limit, files: 1 } }).catch(() => undefined);
        if (!file) throw new FieldInputError('file', messages.none);
        const chunks = file.file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
        const head: Buffer[] = [];
        let headBytes = 0;
        let ended = false;
        try {
          while (headBytes < VIDEO_HEAD_BYTES) {
            const next = await chunks.next();
            if (next.done) {
              ended = true;
              break;
            }
            head.push(next.value);
            headBytes += next.value.length;
          }
        } catch {
          throw pastLimit();
        }
        const kind = videoKind(Buffer.concat(head));
        if (!kind) {
          file.file.resume(); // the rest is read and dropped
          throw new FieldInputError('file', headBytes ? messages.badKind : messages.none);
        }
        const name = `${randomUUID()}.${kind}`;
        const key = `${UPLOAD_KINDS.video.folder}/${name}`;
        async function* all() {
          yield* head;
          if (ended) return;
          for (;;) {
            const next = await chunks.next();
            if (next.done) return;
            yield next.value;
          }
        }
        const target = await configs.forUpload(ctx.tenantId);
        try {
          await target.store.putStream(key, all());
        } catch (err) {
          // the storage's refusal is said as it is; anything else is the upload cut at its limit
          if (isProviderFailure(err)) throw storageRefused(err);
          throw pastLimit();
        }
        const size = await target.store.size(key);
        if (file.file.truncated || size === null) {
          await target.store.remove(key);
          throw pastLimit();
        }
        const url = `${UPLOAD_KINDS.video.served}${name}`;
        await uploads.keep(ctx, url, size, target.ossId);
        return ok(req, { url, name, originalName: file.filename });
      });

      /** A video, played in place: whole, or the byte range a player asks for (seeking). */
      sub.get<{ Params: { name: string } }>(
        '/file/video/:name',
        { config: { public: true } },
        async (req, reply) => {
          const m = /^([0-9a-f-]{36})\.(mp4|webm)$/.exec(req.params.name);
          if (!m) throw notFound();
          const key = `${UPLOAD_KINDS.video.folder}/${req.params.name}`;
          const where = await configs.locate(`${UPLOAD_KINDS.video.served}${req.params.name}`, key);
          if (!('local' in where)) return reply.header('cache-control', 'no-store').redirect(where.url, 302);
          const size = await storage.size(key);
          if (size === null) throw notFound();
          reply
            .header('content-type', VIDEO_TYPES[m[2] as VideoKind])
            .header('accept-ranges', 'bytes')
            .header('cache-control', 'private, max-age=31536000, immutable');
          const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
          if (range && (range[1] || range[2])) {
            // bytes=a-b, bytes=a- (to the end), bytes=-n (the last n)
            let start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
            let end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
            if (!range[1]) end = size - 1;
            if (start >= size || start > end) {
              return reply.code(416).header('content-range', `bytes */${size}`).send();
            }
            start = Math.max(0, start);
            end = Math.max(start, end);
            const stream = storage.open(key, { start, end });
            if (!stream) throw notFound();
            return reply
              .code(206)
              .header('content-range', `bytes ${start}-${end}/${size}`)
              .header('content-length', String(end - start + 1))
              .send(stream);
          }
          const stream = storage.open(key);
          if (!stream) throw notFound();
          return reply.header('content-length', String(size)).send(stream);
        },
      );

      // served as a download under its random name (never rendered in the console's origin)
      sub.get<{ Params: { name: string } }>(
        '/file/attach/:name',
        { config: { public: true } },
        async (req, reply) => {
          const m = /^([0-9a-f-]{36})\.(pdf|docx|xlsx|pptx|png|jpg)$/.exec(req.params.name);
          if (!m) throw notFound();
          const disposition = `attachment; filename="${req.params.name}"`;
          const { folder, served } = UPLOAD_KINDS.files;
          return serve(
            reply,
            `${served}${req.params.name}`,
            `${folder}/${req.params.name}`,
            () => {
              const stream = storage.open(`${folder}/${req.params.name}`);
              if (!stream) throw notFound();
              return reply
                .header('content-type', ATTACHMENT_TYPES[m[2] as AttachmentKind])
                .header('content-disposition', disposition)
                .header('cache-control', 'private, max-age=31536000, immutable')
                .send(stream);
            },
            disposition,
          );
        },
      );

      sub.get<{ Params: { name: string } }>(
        '/file/image/:name',
        { config: { public: true } },
        async (req, reply) => {
          const m = /^([0-9a-f-]{36})\.(png|jpg)$/.exec(req.params.name);
          if (!m) throw notFound();
          const { folder, served } = UPLOAD_KINDS.image;
          return serve(reply, `${served}${req.params.name}`, `${folder}/${req.params.name}`, () => {
            const stream = storage.open(`${folder}/${req.params.name}`);
            if (!stream) throw notFound();
            return reply
              .header('content-type', m[2] === 'png' ? 'image/png' : 'image/jpeg')
              .header('cache-control', 'public, max-age=31536000, immutable')
              .send(stream);
          });
        },
      );
    },
    { prefix: '/api/dfem-hope-manage' },
  );

  const sweeping = { stop: async () => {} };
  app.addHook('onReady', async () => {
    sweeping.stop = runPeriodically(
      'upload sweep',
      config.UPLOAD_SWEEP_INTERVAL_MS,
      () => uploads.sweep(app.log),
      app.log,
    ).stop;
  });
  app.addHook('onClose', async () => {
    await sweeping.stop();
    configs.close();
  });
}
