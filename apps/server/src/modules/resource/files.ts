import { randomUUID } from 'node:crypto';
import { AVATAR_MAX_BYTES } from '@smart/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireCtx } from '../../platform/auth/context';
import { ok } from '../../platform/http/envelope';
import { FieldInputError, notFound } from '../../platform/http/errors';
import { imageKind } from '../../platform/storage';

/**
 * Avatars (spec §5: jpg or png, at most 500 KB), checked by content, not by name or declared type.
 * Served without a token (an <img> cannot send one) under unguessable names.
 */
export async function fileRoutes(app: FastifyInstance) {
  const { storage } = app.deps;

  /** One avatar upload, checked by content; its served path and stored name. */
  const putAvatar = async (req: FastifyRequest) => {
    requireCtx(req);
    const file = await req
      .file({ limits: { fileSize: AVATAR_MAX_BYTES + 1, files: 1 } })
      // an empty, cut-off or non-multipart body holds no file: the same 400 as a form without one
      .catch(() => undefined);
    if (!file)
      throw new FieldInputError('file', { zh: '请选择头像图片', en: 'please choose an avatar image' });
    const buf = await file.toBuffer().catch(() => null);
    if (!buf || buf.length > AVATAR_MAX_BYTES || file.file.truncated)
      throw new FieldInputError('file', {
        zh: '头像图片大小不能超过 500KB',
        en: 'The avatar must be at most 500 KB',
      });
    const kind = imageKind(buf);
    if (!kind)
      throw new FieldInputError('file', {
        zh: '头像只能是 JPG 或 PNG 图片',
        en: 'The avatar must be a JPG or PNG image',
      });
    const name = `${randomUUID()}.${kind}`;
    await storage.put(`avatar/${name}`, buf);
    return { url: `/api/dfem-resource/file/avatar/${name}`, name, originalName: file.filename };
  };

  app.post('/file/avatar', async (req) => {
    const { url, name } = await putAvatar(req);
    return ok(req, { url, name });
  });

  /**
   * The family's upload (its personal-info screen posts the avatar here): the same checks and storage,
   * answered as its `BladeFile` (`link` is what the screen keeps).
   */
  app.post('/oss/endpoint/put-file', async (req) => {
    const { url, name, originalName } = await putAvatar(req);
    return ok(req, { link: url, domain: '', name: `avatar/${name}`, originalName, attachId: null });
  });

  app.get<{ Params: { name: string } }>(
    '/file/avatar/:name',
    { config: { public: true } },
    async (req, reply) => {
      const m = /^([0-9a-f-]{36})\.(png|jpg)$/.exec(req.params.name);
      if (!m) throw notFound();
      const stream = storage.open(`avatar/${req.params.name}`);
      if (!stream) throw notFound();
      return reply
        .header('content-type', m[2] === 'png' ? 'image/png' : 'image/jpeg')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(stream);
    },
  );
}
