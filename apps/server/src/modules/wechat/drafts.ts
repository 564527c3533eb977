import {
  L,
  WX_MATERIAL,
  WX_PUBLISH_STATE,
  type WxDraftArticle,
  wxArticleName,
  wxContentProblem,
  wxDraftProblem,
} from '@smart/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import type { ResourceHooks } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { mountedResource } from '../../platform/crud/refs';
import { insertRows, transaction } from '../../platform/crud/write';
import { formatDateTime } from '../../platform/format';
import { FieldInputError, TextError } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import type { OutboundHosts } from '../../platform/http/outbound';
import { accountFor, type WxAccount } from './accounts';
import { BadImage, wechatArticleHtml, wechatPicture } from './article-html';
import { WechatError, wechatClient, wxRefusal } from './client';

/**
 * 草稿箱 (`wxDraft/*`, spec §7): `add` and `update` check the articles against WeChat's limits
 * (`wxDraftProblem`), clean each article's HTML and move its pictures to WeChat (article-html.ts), check the
 * covers are the account's image materials, push the draft to WeChat (`draft/add`, `draft/update`) and only
 * then keep it with WeChat's media_id; `del/{id}` removes it on WeChat first; `publish/{id}` submits it
 * (`freepublish/submit`) and keeps the publish as a `freePublish` row in state 已提交, which
 * `freePublish/status` follows (publishing.ts). `uploadimg` puts one picture of the editor on WeChat.
 */

const optionalId = idString.optional();
const flag01 = z.union([z.literal(0), z.literal(1), z.enum(['0', '1'])]).optional();

const articleSchema = z
  .object({
    title: z.string().max(200),
    author: z.string().max(50).nullish(),
    digest: z.string().max(500).nullish(),
    content: z.string().max(2_000_000),
    thumbMediaId: z.string().max(128),
    thumbUrl: z.string().max(500).nullish(),
    contentSourceUrl: z.string().max(2000).nullish(),
    needOpenComment: flag01,
    onlyFansCanComment: flag01,
  })
  .strict();

const draftBody = z.object({ accountId: optionalId, articles: z.array(z.unknown()).max(64) }).strict();

const notFound = () => new TextError(404, { zh: '草稿不存在', en: 'No such draft' });

/** the id named in the path (`del/{id}`), else a 400 */
export function pathId(params: unknown): string {
  const id = idString.safeParse((params as { id?: string }).id);
  if (!id.success) throw new FieldInputError('id', L('id 无效', 'Invalid id'));
  return id.data;
}

/** the articles as checked: WeChat's limits first (the 9th article, a missing cover), then their types */
function checkedArticles(raw: unknown[]): WxDraftArticle[] {
  const problem = wxDraftProblem(raw);
  if (problem) throw new FieldInputError(problem.path, problem.message);
  return raw.map((a, i) => {
    const parsed = articleSchema.safeParse(a);
    if (!parsed.success) {
      const field = String(parsed.error.issues[0]?.path[0] ?? 'title');
      throw new FieldInputError(
        `articles[${i}].${field}`,
        L(`${wxArticleName(i).zh}:${field} 无效`, `${wxArticleName(i).en}: invalid ${field}`),
      );
    }
    const p = parsed.data;
    return {
      title: p.title.trim(),
      author: p.author ?? '',
      digest: p.digest ?? '',
      content: p.content,
      thumbMediaId: p.thumbMediaId.trim(),
      thumbUrl: p.thumbUrl ?? '',
      contentSourceUrl: p.contentSourceUrl ?? '',
      needOpenComment: Number(p.needOpenComment ?? 0),
      onlyFansCanComment: Number(p.onlyFansCanComment ?? 0),
    };
  });
}

/** uploads one picture for an article body (media/uploadimg): WeChat's URL */
async function uploadImage(base: string, acct: WxAccount, data: Buffer, ext: 'jpg' | 'png') {
  const form = new FormData();
  form.set('media', new Blob([new Uint8Array(data)]), `image.${ext}`);
  try {
    const { url } = await wechatClient(base).call<{ url: string }>(
      acct,
      'POST',
      'cgi-bin/media/uploadimg',
      form,
    );
    return url;
  } catch (e) {
    throw wxRefusal(e);
  }
}

/**
 * The articles ready for WeChat: each cover an image or thumbnail material of the account (its URL kept for
 * the screens), each body cleaned with its pictures moved, then under WeChat's size limits.
 */
async function prepared(
  ctx: RequestContext,
  base: string,
  acct: WxAccount,
  list: WxDraftArticle[],
  pictureHosts: OutboundHosts,
) {
  const materials = mountedResource('wxMaterial');
  const covers = await materials.db
    .select({ mediaId: materials.cols.mediaId, url: materials.cols.url })
    .from(materials.table)
    .where(
      and(
        await materials.tenantConstraint(ctx),
        eq(materials.cols.accountId, acct.id),
        inArray(materials.cols.type, [WX_MATERIAL.image, WX_MATERIAL.thumb]),
        inArray(
          materials.cols.mediaId,
          list.map((a) => a.thumbMediaId),
        ),
      ),
    );
  const coverUrl = new Map(covers.map((c) => [String(c.mediaId), String(c.url ?? '')]));
  const out: WxDraftArticle[] = [];
  for (const [i, a] of list.entries()) {
    const name = wxArticleName(i);
    if (!coverUrl.has(a.thumbMediaId))
      throw new FieldInputError(
        `articles[${i}].thumbMediaId`,
        L(
          `${name.zh}:封面须为本公众号的图片素材,请重新选择或上传`,
          `${name.en}: the cover must be an image material of this account; choose or upload one`,
        ),
      );
    let content: string;
    try {
      content = await wechatArticleHtml(
        a.content,
        (data, ext) => uploadImage(base, acct, data, ext),
        pictureHosts,
      );
    } catch (e) {
      if (!(e instanceof BadImage)) throw e;
      throw new FieldInputError(
        `articles[${i}].content`,
        L(`${name.zh}:图片 ${e.src} ${e.why.zh}`, `${name.en}: the picture ${e.src} ${e.why.en}`),
      );
    }
    const size = wxContentProblem(content);
    if (size)
      throw new FieldInputError(
        `articles[${i}].content`,
        L(`${name.zh}:${size.zh}`, `${name.en}: ${size.en}`),
      );
    out.push({ ...a, content, thumbUrl: coverUrl.get(a.thumbMediaId) || a.thumbUrl || '' });
  }
  return out;
}

/** an article as WeChat's draft/add takes it */
const toWechat = (a: WxDraftArticle) => ({
  title: a.title,
  author: a.author ?? '',
  digest: a.digest ?? '',
  content: a.content,
  content_source_url: a.contentSourceUrl ?? '',
  thumb_media_id: a.thumbMediaId,
  need_open_comment: Number(a.needOpenComment ?? 0),
  only_fans_can_comment: Number(a.onlyFansCanComment ?? 0),
});

const rowOf = (accountId: string, articles: WxDraftArticle[], mediaId: string) => ({
  accountId,
  title: articles[0].title,
  articleCount: articles.length,
  articles: JSON.stringify(articles),
  mediaId,
});

export const parseArticles = (v: unknown): WxDraftArticle[] => {
  try {
    const list = typeof v === 'string' ? JSON.parse(v) : v;
    return Array.isArray(list) ? (list as WxDraftArticle[]) : [];
  } catch {
    return [];
  }
};

/** `pictureHosts`: where the articles' pictures may be downloaded from (WECHAT_IMAGE_FETCH) */
export function draftHooks(base: string, pictureHosts: OutboundHosts = 'public'): ResourceHooks {
  const client = () => wechatClient(base);
  return {
    endpoints: [
      endpoint({
        method: 'POST',
        path: 'add',
        codeSuffix: '_add',
        bodyLimit: 20 * 1024 * 1024,
        query: z.object({}).strict(),
        body: draftBody,
        async handler({ ctx, resource, body }) {
          const list = checkedArticles(body.articles);
          const acct = await accountFor(ctx, body.accountId);
          const articles = await prepared(ctx, base, acct, list, pictureHosts);
          let mediaId: string;
          try {
            ({ media_id: mediaId } = await client().call<{ media_id: string }>(
              acct,
              'POST',
              'cgi-bin/draft/add',
              {
                articles: articles.map(toWechat),
              },
            ));
          } catch (e) {
            throw wxRefusal(e);
          }
          const [w] = await transaction(resource.db, (tx) =>
            insertRows(resource, ctx, tx, [rowOf(acct.id, articles, mediaId)], { answer: true }),
          );
          return w.row;
        },
      }),
      endpoint({
        method: 'POST',
        path: 'update',
        codeSuffix: '_edit',
        bodyLimit: 20 * 1024 * 1024,
        query: z.object({}).strict(),
        body: draftBody.extend({ id: idString }),
        async handler({ ctx, resource, scope, body }) {
          const [row] = await resource.db
            .select({
              accountId: resource.cols.accountId,
              mediaId: resource.cols.mediaId,
              articles: resource.cols.articles,
            })
            .from(resource.table)
            .where(and(scope, eq(resource.cols.id, body.id)));
          if (!row) throw notFound();
          const list = checkedArticles(body.articles);
          const acct = await accountFor(ctx, String(row.accountId));
          const articles = await prepared(ctx, base, acct, list, pictureHosts);
          const was = parseArticles(row.articles);
          let mediaId = String(row.mediaId);
          try {
            if (was.length === articles.length) {
              // WeChat edits a draft one article at a time, in place
              for (const [index, a] of articles.entries())
                if (JSON.stringify(a) !== JSON.stringify(was[index]))
                  await client().call(acct, 'POST', 'cgi-bin/draft/update', {
                    media_id: mediaId,
                    index,
                    articles: toWechat(a),
                  });
            } else {
              // another number of articles: WeChat keeps it as a new draft, and the old one goes
              ({ media_id: mediaId } = await client().call<{ media_id: string }>(
                acct,
                'POST',
                'cgi-bin/draft/add',
                {
                  articles: articles.map(toWechat),
                },
              ));
              await client()
                .call(acct, 'POST', 'cgi-bin/draft/delete', { media_id: row.mediaId })
                .catch((e) => {
                  if (!(e instanceof WechatError && e.errcode === 40007)) throw e;
                });
            }
          } catch (e) {
            throw wxRefusal(e);
          }
          return transaction(resource.db, (tx) =>
            resource.patch(ctx, tx, body.id, rowOf(acct.id, articles, mediaId), scope),
          );
        },
      }),
      endpoint({
        method: 'POST',
        path: 'del/:id',
        codeSuffix: '_delete',
        query: z.object({}).strict(),
        async handler({ req, ctx, resource, scope }) {
          const id = pathId(req.params);
          const [row] = await resource.db
            .select({ accountId: resource.cols.accountId, mediaId: resource.cols.mediaId })
            .from(resource.table)
            .where(and(scope, eq(resource.cols.id, id)));
          if (!row) throw notFound();
          const acct = await accountFor(ctx, String(row.accountId));
          try {
            await client().call(acct, 'POST', 'cgi-bin/draft/delete', { media_id: row.mediaId });
          } catch (e) {
            // WeChat no longer has it (published, or removed there): it goes here too
            if (!(e instanceof WechatError && e.errcode === 40007)) throw wxRefusal(e);
          }
          await resource.remove(ctx, [id]);
          return true;
        },
      }),
      endpoint({
        method: 'POST',
        path: 'publish/:id',
        codeSuffix: '_publish',
        query: z.object({}).strict(),
        async handler({ req, ctx, resource, scope }) {
          const id = pathId(req.params);
          const [row] = await resource.db
            .select({
              accountId: resource.cols.accountId,
              mediaId: resource.cols.mediaId,
              articles: resource.cols.articles,
            })
            .from(resource.table)
            .where(and(scope, eq(resource.cols.id, id)));
          if (!row) throw notFound();
          const acct = await accountFor(ctx, String(row.accountId));
          const publishes = mountedResource('freePublish');
          const [running] = await publishes.db
            .select({ id: publishes.cols.id })
            .from(publishes.table)
            .where(
              and(
                await publishes.tenantConstraint(ctx),
                eq(publishes.cols.draftId, id),
                inArray(publishes.cols.state, [WX_PUBLISH_STATE.submitted, WX_PUBLISH_STATE.publishing]),
              ),
            )
            .limit(1);
          if (running)
            throw new TextError(
              409,
              L('该草稿正在发布中,请等待发布结果', 'This draft is being published: wait for the outcome'),
              { publishRowId: String(running.id) },
            );
          let answer: { publish_id: string | number; msg_data_id?: string | number };
          try {
            answer = await client().call(acct, 'POST', 'cgi-bin/freepublish/submit', {
              media_id: row.mediaId,
            });
          } catch (e) {
            throw wxRefusal(e);
          }
          const titles = parseArticles(row.articles).map((a) => a.title);
          const [w] = await transaction(publishes.db, (tx) =>
            insertRows(
              publishes,
              ctx,
              tx,
              [
                {
                  accountId: acct.id,
                  title: titles[0] ?? '',
                  state: WX_PUBLISH_STATE.submitted,
                  publishId: String(answer.publish_id),
                  msgDataId: answer.msg_data_id === undefined ? null : String(answer.msg_data_id),
                  draftId: id,
                  titles: JSON.stringify(titles),
                  articleCount: titles.length,
                  publishTime: formatDateTime(new Date()),
                },
              ],
              { answer: true },
            ),
          );
          // answered as the list answers it (the state's name included)
          const [fresh] = await publishes.db
            .select(publishes.selection)
            .from(publishes.table)
            .where(eq(publishes.cols.id, String(w.row.id)));
          return (await publishes.output(ctx, [fresh ?? w.row], req.lang))[0];
        },
      }),
      endpoint({
        method: 'POST',
        path: 'uploadimg',
        codeSuffix: ['_add', '_edit'],
        query: z.object({ accountId: optionalId }).strict(),
        async handler({ req, ctx, query }) {
          const file = await req
            .file({ limits: { fileSize: 10 * 1024 * 1024 + 1, files: 1 } })
            .catch(() => undefined);
          if (!file) throw new FieldInputError('file', L('请选择图片', 'Choose a picture'));
          const buf = await file.toBuffer().catch(() => null);
          if (file.file.truncated || !buf?.length)
            throw new FieldInputError('file', L('图片不超过 10MB', 'A picture is at most 10 MB'));
          const acct = await accountFor(ctx, query.accountId);
          let picture: { data: Buffer; ext: 'jpg' | 'png' };
          try {
            picture = await wechatPicture(file.filename || 'file', buf);
          } catch (e) {
            if (!(e instanceof BadImage)) throw e;
            throw new FieldInputError('file', L(`图片${e.why.zh}`, `The picture ${e.why.en}`));
          }
          return { url: await uploadImage(base, acct, picture.data, picture.ext) };
        },
      }),
    ],
  };
}
