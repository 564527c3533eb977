import { L, WX_MATERIAL, WX_MATERIAL_RULES, wxMaterialProblem } from '@smart/contracts';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { ResourceHooks } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { insertRows, transaction } from '../../platform/crud/write';
import { FieldInputError, TextError } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { imageKind, videoKind } from '../../platform/storage';
import { accountFor } from './accounts';
import { WechatError, wechatClient, wxRefusal } from './client';

/**
 * 素材管理 (`wxMaterial/*`, spec §7): permanent materials. `upload` reads one file, checks it against WeChat's
 * limits for its type by its content (`wxMaterialProblem`), sends it to `material/add_material` and keeps the
 * row WeChat's answer makes; `del/{id}` removes it on WeChat first (one WeChat no longer has is removed here
 * too); `materialVideo` answers a video's details and `materialOther` a file (a blob), both from WeChat.
 */

/** the kind of file a buffer really holds, of those WeChat's materials take */
export function materialKind(buf: Buffer): string | null {
  const image = imageKind(buf);
  if (image) return image;
  const head = buf.subarray(0, 16);
  const ascii = head.toString('latin1');
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'gif';
  if (ascii.startsWith('BM') && buf.length > 26) return 'bmp';
  if (ascii.startsWith('#!AMR')) return 'amr';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WAVE') return 'wav';
  if (ascii.startsWith('ID3') || (head[0] === 0xff && (head[1] & 0xe0) === 0xe0)) return 'mp3';
  if (head.length >= 8 && head.readUInt32BE(0) === 0x3026b275 && head.readUInt32BE(4) === 0x8e66cf11)
    return 'wma';
  return videoKind(buf) === 'mp4' ? 'mp4' : null;
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  amr: 'audio/amr',
  wma: 'audio/x-ms-wma',
};

const NO_FILE = L('请选择要上传的文件', 'Choose a file to upload');
const notFound = () => new TextError(404, { zh: '素材不存在', en: 'No such material' });

export function materialHooks(base: string): ResourceHooks {
  return {
    endpoints: [
      endpoint({
        method: 'POST',
        path: 'upload',
        codeSuffix: '_upload',
        query: z
          .object({
            type: z.enum(Object.values(WX_MATERIAL) as [string, ...string[]]),
            accountId: idString.optional(),
            title: z.string().trim().min(1).max(64).optional(),
            introduction: z.string().max(200).optional(),
          })
          .strict(),
        async handler({ req, ctx, resource, query }) {
          const rule = WX_MATERIAL_RULES[query.type];
          if (query.type === WX_MATERIAL.video && !query.title)
            throw new FieldInputError('title', L('请填写视频标题', 'Enter the video’s title'));
          const file = await req
            .file({ limits: { fileSize: rule.maxBytes + 1, files: 1 } })
            .catch(() => undefined);
          if (!file) throw new FieldInputError('file', NO_FILE);
          // past the type's limit the reading stops (and says so): WeChat's limit is the answer
          const buf = await file.toBuffer().catch(() => null);
          if (file.file.truncated) throw new FieldInputError('file', rule.limit);
          if (!buf?.length) throw new FieldInputError('file', NO_FILE);
          const problem = wxMaterialProblem(query.type, materialKind(buf), buf.length);
          const kind = materialKind(buf);
          if (problem) throw new FieldInputError('file', problem);
          const acct = await accountFor(ctx, query.accountId);
          const name = (file.filename || `material.${kind}`).replace(/[\\/\0]/g, '_').slice(0, 128);
          const form = new FormData();
          form.set('media', new Blob([new Uint8Array(buf)]), `${name.replace(/\.[^.]*$/, '')}.${kind}`);
          if (query.type === WX_MATERIAL.video)
            form.set(
              'description',
              JSON.stringify({ title: query.title, introduction: query.introduction ?? '' }),
            );
          let answer: { media_id: string; url?: string };
          try {
            answer = await wechatClient(base).call(acct, 'POST', 'cgi-bin/material/add_material', form, {
              type: rule.wx,
            });
          } catch (e) {
            throw wxRefusal(e);
          }
          const [w] = await transaction(resource.db, (tx) =>
            insertRows(
              resource,
              ctx,
              tx,
              [
                {
                  accountId: acct.id,
                  type: query.type,
                  name,
                  mediaId: answer.media_id,
                  url: answer.url ?? null,
                  title: query.title ?? null,
                  introduction: query.introduction ?? null,
                  size: buf.length,
                },
              ],
              { answer: true },
            ),
          );
          return w.row;
        },
      }),
      endpoint({
        method: 'POST',
        path: 'del/:id',
        codeSuffix: '_delete',
        query: z.object({}).strict(),
        async handler({ req, ctx, resource, scope }) {
          const id = idString.safeParse((req.params as { id?: string }).id);
          if (!id.success) throw new FieldInputError('id', L('id 无效', 'Invalid id'));
          const [row] = await resource.db
            .select({ accountId: resource.cols.accountId, mediaId: resource.cols.mediaId })
            .from(resource.table)
            .where(and(scope, eq(resource.cols.id, id.data)));
          if (!row) throw notFound();
          const acct = await accountFor(ctx, String(row.accountId));
          try {
            await wechatClient(base).call(acct, 'POST', 'cgi-bin/material/del_material', {
              media_id: row.mediaId,
            });
          } catch (e) {
            // WeChat no longer has it (40007): it goes here too
            if (!(e instanceof WechatError && e.errcode === 40007)) throw wxRefusal(e);
          }
          await resource.remove(ctx, [id.data]);
          return true;
        },
      }),
      endpoint({
        method: 'GET',
        path: 'materialVideo',
        codeSuffix: ['', '_view'],
        query: z.object({ id: idString }).strict(),
        async handler({ ctx, resource, scope, query }) {
          const [row] = await resource.db
            .select({
              accountId: resource.cols.accountId,
              mediaId: resource.cols.mediaId,
              type: resource.cols.type,
            })
            .from(resource.table)
            .where(and(scope, eq(resource.cols.id, query.id)));
          if (!row || String(row.type) !== WX_MATERIAL.video) throw notFound();
          const acct = await accountFor(ctx, String(row.accountId));
          try {
            const v = await wechatClient(base).call<{
              title?: string;
              description?: string;
              down_url?: string;
            }>(acct, 'POST', 'cgi-bin/material/get_material', { media_id: row.mediaId });
            return { title: v.title ?? '', description: v.description ?? '', downUrl: v.down_url ?? '' };
          } catch (e) {
            throw wxRefusal(e);
          }
        },
      }),
      endpoint({
        method: 'GET',
        path: 'materialOther',
        codeSuffix: ['', '_view'],
        query: z.object({ id: idString }).strict(),
        async handler({ ctx, reply, resource, scope, query }) {
          const [row] = await resource.db
            .select({
              accountId: resource.cols.accountId,
              mediaId: resource.cols.mediaId,
              type: resource.cols.type,
              name: resource.cols.name,
            })
            .from(resource.table)
            .where(and(scope, eq(resource.cols.id, query.id)));
          if (!row || String(row.type) === WX_MATERIAL.video) throw notFound();
          const acct = await accountFor(ctx, String(row.accountId));
          let got: { file?: Buffer };
          try {
            got = await wechatClient(base).call(acct, 'POST', 'cgi-bin/material/get_material', {
              media_id: row.mediaId,
            });
          } catch (e) {
            throw wxRefusal(e);
          }
          if (!got.file) throw notFound();
          const kind = materialKind(got.file);
          const name = encodeURIComponent(String(row.name ?? 'material'));
          return reply
            .type(CONTENT_TYPES[kind ?? ''] ?? 'application/octet-stream')
            .header('content-disposition', `attachment; filename*=UTF-8''${name}`)
            .header('cache-control', 'private, no-store')
            .send(got.file);
        },
      }),
    ],
  };
}
