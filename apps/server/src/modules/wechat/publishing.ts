import { L, WX_PUBLISH_STATE, wxFailedArticles, wxPublishFinal, wxPublishState } from '@smart/contracts';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import type { MountedResource, ResourceHooks, Row } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { mountedResource } from '../../platform/crud/refs';
import { insertRows, transaction } from '../../platform/crud/write';
import { formatDateTime } from '../../platform/format';
import { TextError } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { accountFor } from './accounts';
import { WechatError, wechatClient, wxRefusal } from './client';
import { pathId } from './drafts';

/**
 * 发布记录 (`freePublish/*`, spec §7). A publish is a job WeChat runs: `wxDraft/publish/{id}` keeps its
 * publish_id in state 已提交; `GET freePublish/status?id=` asks `freepublish/get` once while the state is not
 * final (concurrent askers of one row share one question) and keeps WeChat's answer: 发布中, or an outcome —
 * 成功 (its article_id, the articles written as `wxArticle` rows with their permanent links, the draft gone as
 * WeChat removed it), or 原创失败 / 常规失败 / 平台审核不通过 with `fail_idx` named (`failed`), or the two
 * after-success states. The screen asks while it shows a row that is not final (with backoff); nothing polls
 * when nobody looks, and a restart loses nothing. `status?id=&recheck=1` asks again about a 成功 one (its
 * author may delete it, or WeChat ban it, later: 5, 6). `del/{id}` removes a published item on WeChat
 * (`freepublish/delete`) and then here, with its articles and their comments.
 */

const asking = new Map<string, Promise<Row>>();

interface PublishAnswer {
  publish_status: number;
  article_id?: string;
  article_detail?: { item?: { idx: number; article_url: string }[] };
  fail_idx?: number[];
}

interface NewsItem {
  title?: string;
  author?: string;
  digest?: string;
  content?: string;
  url?: string;
  thumb_url?: string;
  need_open_comment?: number;
}

const notFound = () => new TextError(404, { zh: '发布记录不存在', en: 'No such publication' });

const titlesOf = (row: Row): string[] => {
  try {
    const t = JSON.parse(String(row.titles ?? '[]'));
    return Array.isArray(t) ? t.map(String) : [];
  } catch {
    return [];
  }
};

/** asks WeChat once how the publish of row `id` goes, and keeps the answer (the row as it is then) */
async function check(base: string, ctx: RequestContext, m: MountedResource, row: Row): Promise<Row> {
  const id = String(row.id);
  const acct = await accountFor(ctx, String(row.accountId));
  const client = wechatClient(base);
  let got: PublishAnswer;
  try {
    got = await client.call<PublishAnswer>(acct, 'POST', 'cgi-bin/freepublish/get', {
      publish_id: row.publishId,
    });
  } catch (e) {
    throw wxRefusal(e);
  }
  const state = wxPublishState(Number(got.publish_status));
  const set: Record<string, unknown> = {
    state,
    publishStatus: Number(got.publish_status),
    checkedAt: formatDateTime(new Date()),
  };
  const failIdx = (got.fail_idx ?? []).map(Number).filter((n) => Number.isInteger(n));
  if (failIdx.length) {
    set.failIdx = failIdx.join(',');
    set.failed = wxFailedArticles(failIdx, titlesOf(row)).zh.slice(0, 500);
  }
  let news: NewsItem[] = [];
  if (state === WX_PUBLISH_STATE.success && got.article_id && !row.articleId) {
    set.articleId = got.article_id;
    const links = got.article_detail?.item ?? [];
    try {
      news =
        (
          await client.call<{ news_item: NewsItem[] }>(acct, 'POST', 'cgi-bin/freepublish/getarticle', {
            article_id: got.article_id,
          })
        ).news_item ?? [];
    } catch (e) {
      throw wxRefusal(e);
    }
    news = news.map((n, i) => ({ ...n, url: links.find((l) => l.idx === i + 1)?.article_url ?? n.url }));
    set.url = news[0]?.url ?? links[0]?.article_url ?? null;
    if (news[0]?.title) set.title = String(news[0].title).slice(0, 64);
  }
  const articles = mountedResource('wxArticle');
  const written = await transaction(m.db, async (tx) => {
    const w = await m.patch(ctx, tx, id, set);
    if (news.length)
      await insertRows(
        articles,
        ctx,
        tx,
        news.map((n, i) => ({
          accountId: row.accountId,
          title: String(n.title ?? '').slice(0, 64),
          author: String(n.author ?? '').slice(0, 8),
          digest: String(n.digest ?? '').slice(0, 120),
          content: String(n.content ?? ''),
          url: n.url ?? null,
          thumbUrl: n.thumb_url ?? null,
          articleId: String(got.article_id),
          idx: i + 1,
          msgDataId: row.msgDataId ?? null,
          publishRowId: id,
          commentOpen: Number(n.need_open_comment ?? 0) === 1 ? 1 : 0,
          hidden: 0,
          commentCount: 0,
          publishTime: formatDateTime(new Date()),
        })),
      );
    return w;
  });
  // WeChat removed the published draft from its drafts: so does the draft box here
  if (news.length && row.draftId) {
    const drafts = mountedResource('wxDraft');
    const [d] = await drafts.db
      .select({ id: drafts.cols.id })
      .from(drafts.table)
      .where(and(await drafts.tenantConstraint(ctx), eq(drafts.cols.id, String(row.draftId))));
    if (d) await drafts.remove(ctx, [String(d.id)]).catch(() => undefined);
  }
  return written;
}

/** the row, asked about once more when it is not final (one question at a time per row) */
export async function followPublish(
  base: string,
  ctx: RequestContext,
  m: MountedResource,
  row: Row,
  recheck = false,
) {
  // a published item may still be deleted by its author or banned on WeChat (5, 6): asked again on request
  const again = recheck && String(row.state) === WX_PUBLISH_STATE.success;
  if (wxPublishFinal(row.state) && !again) return row;
  const key = String(row.id);
  const running = asking.get(key);
  if (running) return running;
  const fresh = check(base, ctx, m, row).finally(() => asking.delete(key));
  asking.set(key, fresh);
  return fresh;
}

async function readRow(m: MountedResource, scope: unknown, id: string) {
  const [row] = await m.db
    .select(m.selection)
    .from(m.table)
    .where(and(scope as never, eq(m.cols.id, id)));
  return row as Row | undefined;
}

export function freePublishHooks(base: string): ResourceHooks {
  return {
    endpoints: [
      endpoint({
        method: 'GET',
        path: 'status',
        codeSuffix: ['', '_view'],
        query: z.object({ id: idString, recheck: z.enum(['1']).optional() }).strict(),
        async handler({ req, ctx, resource, scope, query }) {
          const row = await readRow(resource, scope, query.id);
          if (!row) throw notFound();
          const now = await followPublish(base, ctx, resource, row, query.recheck === '1');
          const fresh = (await readRow(resource, scope, String(now.id))) ?? now;
          return (await resource.output(ctx, [fresh], req.lang))[0];
        },
      }),
      endpoint({
        method: 'POST',
        path: 'del/:id',
        codeSuffix: '_delete',
        query: z.object({}).strict(),
        async handler({ req, ctx, resource, scope }) {
          const id = pathId(req.params);
          const row = await readRow(resource, scope, id);
          if (!row) throw notFound();
          if (!wxPublishFinal(row.state))
            throw new TextError(
              409,
              L('仍在发布中,待出结果后才能删除', 'Still publishing: it can be deleted once WeChat answered'),
            );
          if (row.articleId) {
            const acct = await accountFor(ctx, String(row.accountId));
            try {
              await wechatClient(base).call(acct, 'POST', 'cgi-bin/freepublish/delete', {
                article_id: row.articleId,
                index: 0,
              });
            } catch (e) {
              // WeChat no longer has it (53600): it goes here too
              if (!(e instanceof WechatError && e.errcode === 53600)) throw wxRefusal(e);
            }
            await removeArticles(ctx, id);
          }
          await resource.remove(ctx, [id]);
          return true;
        },
      }),
    ],
  };
}

/** the articles of a publish and their comments, removed here (WeChat removed them) */
async function removeArticles(ctx: RequestContext, publishRowId: string) {
  const articles = mountedResource('wxArticle');
  const comments = mountedResource('wxComment');
  const rows = await articles.db
    .select({ id: articles.cols.id })
    .from(articles.table)
    .where(and(await articles.tenantConstraint(ctx), eq(articles.cols.publishRowId, publishRowId)));
  for (const a of rows) {
    const cs = await comments.db
      .select({ id: comments.cols.id })
      .from(comments.table)
      .where(and(await comments.tenantConstraint(ctx), eq(comments.cols.articleRowId, String(a.id))));
    if (cs.length)
      await comments.remove(
        ctx,
        cs.map((c) => String(c.id)),
      );
  }
  if (rows.length)
    await articles.remove(
      ctx,
      rows.map((r) => String(r.id)),
    );
}
