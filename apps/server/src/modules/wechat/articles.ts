import { L } from '@smart/contracts';
import { and, count, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import type { MountedResource, ResourceHooks, Row } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { mountedResource } from '../../platform/crud/refs';
import { insertRows, transaction } from '../../platform/crud/write';
import { formatDateTime } from '../../platform/format';
import { FieldInputError, TextError } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { pagedList } from '../../platform/paging';
import { accountFor } from './accounts';
import { wechatClient, wxRefusal } from './client';
import { pathId } from './drafts';

/**
 * 文章管理 and 留言管理 (`article/*`, `comment/*`, spec §7): the published articles (written when a publish
 * succeeds, publishing.ts) and their readers' comments (synchronised from WeChat's `comment/list`).
 * - `POST article/page` (the family's list is a POST: its filters and paging in the body, as the engine's list
 *   reads them from a query), `GET article/detail/{id}` (the body included).
 * - `GET article/hide/{id}` hides an article from this product's lists (the mini-program's, the banners'
 *   picker); `?hidden=0` shows it again. Not a toggle: a repeated call changes nothing. WeChat has no call to
 *   hide a published article (deleting it is `freePublish/del/{id}`), so this stays here.
 * - `POST article/openComment` / `closeComment` `{ id }`: WeChat's `comment/open` / `comment/close` first.
 * - `GET comment/hide/{id}`: the comment out of the 精选 readers see (`comment/unmarkelect`); `?hidden=0`
 *   elects it again (`comment/markelect`). `POST comment/synchron` `{ articleId }` reads the article's comments
 *   from WeChat, 50 at a time, and keeps them.
 */

const hiddenQuery = z.object({ hidden: z.enum(['0', '1']).optional() }).strict();
const PAGE_KEYS = z.union([z.string().max(200), z.number()]);

async function readRow(m: MountedResource, scope: unknown, id: string) {
  const [row] = await m.db
    .select(m.selection)
    .from(m.table)
    .where(and(scope as never, eq(m.cols.id, id)));
  return row as Row | undefined;
}

const noArticle = () => new TextError(404, { zh: '文章不存在', en: 'No such article' });
const noComment = () => new TextError(404, { zh: '留言不存在', en: 'No such comment' });

/** WeChat's way of naming an article's comments: the publish's msg_data_id and the article's place from 0 */
const commentKey = (a: Row) => {
  if (!a.msgDataId)
    throw new TextError(
      409,
      L(
        '该文章没有 msg_data_id,无法管理留言',
        'This article has no msg_data_id: its comments cannot be managed',
      ),
    );
  return { msg_data_id: Number(a.msgDataId), index: Number(a.idx ?? 1) - 1 };
};

function commentSwitch(base: string, open: boolean) {
  return endpoint({
    method: 'POST',
    path: open ? 'openComment' : 'closeComment',
    codeSuffix: '_comment',
    query: z.object({}).strict(),
    body: z.object({ id: idString }).strict(),
    async handler({ ctx, resource, scope, body }) {
      const row = await readRow(resource, scope, body.id);
      if (!row) throw noArticle();
      const acct = await accountFor(ctx, String(row.accountId));
      try {
        await wechatClient(base).call(
          acct,
          'POST',
          `cgi-bin/comment/${open ? 'open' : 'close'}`,
          commentKey(row),
        );
      } catch (e) {
        throw wxRefusal(e);
      }
      await transaction(resource.db, (tx) =>
        resource.patch(ctx, tx, body.id, { commentOpen: open ? 1 : 0 }, scope),
      );
      return true;
    },
  });
}

export function articleHooks(base: string): ResourceHooks {
  return {
    endpoints: [
      endpoint({
        method: 'POST',
        path: 'page',
        codeSuffix: '',
        query: z.record(z.string(), z.string()),
        body: z.record(z.string(), PAGE_KEYS).optional(),
        async handler({ req, ctx, resource, query, body }) {
          const asked = Object.fromEntries(
            Object.entries({ ...query, ...(body ?? {}) }).map(([k, v]) => [k, String(v)]),
          );
          const current = Number(asked.current ?? 1);
          const size = Number(asked.size ?? 10);
          if (!Number.isInteger(current) || current < 1)
            throw new FieldInputError('current', L('页码无效', 'Invalid page'));
          if (!Number.isInteger(size) || size < 1 || size > 200)
            throw new FieldInputError('size', L('每页条数无效', 'Invalid page size'));
          const where = await resource.listWhere(ctx, asked);
          return pagedList(
            { current, size },
            {
              rows: resource.db
                .select(resource.listSelection)
                .from(resource.table)
                .where(where)
                .orderBy(...resource.defaultOrder),
              total: resource.db.select({ total: count() }).from(resource.table).where(where),
              records: (rows) => resource.output(ctx, rows as Row[], req.lang),
            },
          );
        },
      }),
      endpoint({
        method: 'GET',
        path: 'detail/:id',
        codeSuffix: ['_view', '_edit', ''],
        query: z.object({}).strict(),
        async handler({ req, ctx, resource, scope }) {
          const row = await readRow(resource, scope, pathId(req.params));
          if (!row) throw noArticle();
          return (await resource.output(ctx, [row], req.lang))[0];
        },
      }),
      endpoint({
        method: 'GET',
        path: 'hide/:id',
        codeSuffix: '_hide',
        query: hiddenQuery,
        async handler({ req, ctx, resource, scope, query }) {
          const id = pathId(req.params);
          const hidden = query.hidden === '0' ? 0 : 1;
          return transaction(resource.db, (tx) => resource.patch(ctx, tx, id, { hidden }, scope));
        },
      }),
      commentSwitch(base, true),
      commentSwitch(base, false),
    ],
  };
}

interface WxComment {
  user_comment_id: number;
  openid: string;
  create_time: number;
  content: string;
  comment_type: number;
  reply?: { content: string; create_time: number };
}

/** reads an article's comments from WeChat (50 at a time) and keeps them: new ones added, known ones updated */
async function synchronise(base: string, ctx: RequestContext, article: Row) {
  const acct = await accountFor(ctx, String(article.accountId));
  const key = commentKey(article);
  const got: WxComment[] = [];
  try {
    for (let begin = 0; ; begin += 50) {
      const page = await wechatClient(base).call<{ total: number; comment: WxComment[] }>(
        acct,
        'POST',
        'cgi-bin/comment/list',
        { ...key, begin, count: 50, type: 0 },
      );
      got.push(...(page.comment ?? []));
      if (!page.comment?.length || got.length >= Number(page.total ?? 0)) break;
    }
  } catch (e) {
    throw wxRefusal(e);
  }
  const m = mountedResource('wxComment');
  const articles = mountedResource('wxArticle');
  const articleRowId = String(article.id);
  const fresh: WxComment[] = [];
  await transaction(m.db, async (tx) => {
    const known = await tx
      .select({ id: m.cols.id, userCommentId: m.cols.userCommentId })
      .from(m.table)
      .where(and(await m.tenantConstraint(ctx), eq(m.cols.articleRowId, articleRowId)));
    const byNumber = new Map(known.map((k) => [Number(k.userCommentId), String(k.id)]));
    const row = (c: WxComment) => ({
      content: String(c.content ?? '').slice(0, 1000),
      replyContent: c.reply?.content ? String(c.reply.content).slice(0, 1000) : null,
      elected: Number(c.comment_type) === 1 ? 1 : 0,
    });
    fresh.push(...got.filter((c) => !byNumber.has(Number(c.user_comment_id))));
    for (const c of got) {
      const id = byNumber.get(Number(c.user_comment_id));
      if (id) await m.patch(ctx, tx, id, row(c), await m.tenantConstraint(ctx));
    }
    if (fresh.length)
      await insertRows(
        m,
        ctx,
        tx,
        fresh.map((c) => ({
          accountId: article.accountId,
          articleRowId,
          userCommentId: Number(c.user_comment_id),
          openid: String(c.openid ?? '').slice(0, 64),
          commentTime: formatDateTime(new Date(Number(c.create_time) * 1000)),
          ...row(c),
        })),
      );
    await articles.patch(
      ctx,
      tx,
      articleRowId,
      { commentCount: got.length },
      await articles.tenantConstraint(ctx),
    );
  });
  return { total: got.length, added: fresh.length };
}

export function commentHooks(base: string): ResourceHooks {
  return {
    endpoints: [
      endpoint({
        method: 'GET',
        path: 'hide/:id',
        codeSuffix: '_hide',
        query: hiddenQuery,
        async handler({ req, ctx, resource, scope, query }) {
          const id = pathId(req.params);
          const comment = await readRow(resource, scope, id);
          if (!comment) throw noComment();
          const articles = mountedResource('wxArticle');
          const article = await readRow(
            articles,
            await articles.tenantConstraint(ctx),
            String(comment.articleRowId),
          );
          if (!article) throw noArticle();
          const show = query.hidden === '0';
          const acct = await accountFor(ctx, String(comment.accountId));
          try {
            await wechatClient(base).call(
              acct,
              'POST',
              `cgi-bin/comment/${show ? 'markelect' : 'unmarkelect'}`,
              {
                ...commentKey(article),
                user_comment_id: Number(comment.userCommentId),
              },
            );
          } catch (e) {
            throw wxRefusal(e);
          }
          return transaction(resource.db, (tx) =>
            resource.patch(ctx, tx, id, { elected: show ? 1 : 0 }, scope),
          );
        },
      }),
      endpoint({
        method: 'POST',
        path: 'synchron',
        codeSuffix: '_synchron',
        query: z.object({}).strict(),
        body: z.object({ articleId: idString }).strict(),
        async handler({ ctx, body }) {
          const articles = mountedResource('wxArticle');
          const article = await readRow(articles, await articles.constraint(ctx), body.articleId);
          if (!article) throw noArticle();
          return synchronise(base, ctx, article);
        },
      }),
    ],
  };
}
