import { POINTS_EVENT, PROJECT_STATUS } from '@smart/contracts';
import { and, desc, eq, inArray, like, or, sql } from 'drizzle-orm';
import type { RequestContext } from '../../platform/auth/context';
import type { ResourceHooks } from '../../platform/crud/binding';
import type { Db } from '../../platform/db';
import { ApiError } from '../../platform/http/errors';
import { notDeleted, rowsOf } from '../../platform/sql';
import { scoreRankRule } from '../village/tables';
import { post } from './hooks';
import { pointsRecord, pointsRule } from './tables';

/**
 * Other areas' events on the points ledger (their bindings spread these hooks into their own):
 * - a 积分管理 record is a credit (or a penalty) of the villager's account, named by the record; editing
 *   its points or villager reverses that credit and posts the new one, removing it reverses it — a penalty
 *   or a reversal never takes an account below zero (it takes what is there, and says so);
 * - a task set to 已完成 credits its assignee by the tenant's enabled 任务完成 rule, once per task: reopened
 *   and completed again, it is not paid twice (the ledger keeps a business event once);
 * - an evaluation project published credits the villagers of its entries placed first to third by the
 *   tenant's enabled 评比结果 rule, once per entry (reopened and published again, not paid twice).
 * A rule out of effect or over its cap pays nothing, and the event is saved all the same.
 */

/** The live (not reversed) credits a score record has posted: `<id>`, then `<id>.<n>` after each edit. */
async function liveCredits(tx: Db, tenantId: string, recordIds: string[]) {
  const rows = await tx
    .select({
      id: pointsRecord.id,
      points: pointsRecord.points,
      villagerId: pointsRecord.villagerId,
      bizId: pointsRecord.bizId,
    })
    .from(pointsRecord)
    .where(
      and(
        eq(pointsRecord.tenantId, tenantId),
        eq(pointsRecord.eventType, POINTS_EVENT.village),
        or(
          inArray(pointsRecord.bizId, recordIds),
          ...recordIds.map((id) => like(pointsRecord.bizId, `${id}.%`)),
        ),
        notDeleted(pointsRecord.isDeleted),
        sql`not exists (select 1 from hope_points_record r where r.tenant_id = ${tenantId}
          and r.event_type = ${POINTS_EVENT.reversal} and r.biz_id = ${pointsRecord.id}::text and r.is_deleted = 0)`,
      ),
    )
    .orderBy(desc(pointsRecord.id));
  return rows.map((r) => ({ ...r, id: String(r.id), bizId: String(r.bizId), points: Number(r.points) }));
}

async function reverse(ctx: RequestContext, tx: Db, credits: Awaited<ReturnType<typeof liveCredits>>) {
  if (!credits.length) return;
  await post(
    ctx,
    tx,
    credits.map((c) => ({
      villagerId: String(c.villagerId),
      points: -c.points,
      eventType: POINTS_EVENT.reversal,
      bizId: c.id,
      reason: `冲正村务积分记录 ${c.bizId.split('.')[0]}`,
      floorAtZero: true,
    })),
  );
}

async function ruleName(tx: Db, ruleId: unknown): Promise<string> {
  if (!ruleId) return '';
  const [r] = await tx
    .select({ n: scoreRankRule.ruleName })
    .from(scoreRankRule)
    .where(eq(scoreRankRule.id, String(ruleId)))
    .limit(1);
  return String(r?.n ?? '');
}

export const scoreRankCredits: Pick<ResourceHooks, 'afterChange' | 'afterDelete'> = {
  async afterChange(ctx, changes, tx) {
    for (const c of changes) {
      const points = Number(c.row.points ?? 0);
      const id = String(c.row.id);
      let bizId = id;
      if (c.mode === 'update') {
        const was = c.original;
        if (was && Number(was.points) === points && String(was.villagerId) === String(c.row.villagerId))
          continue;
        const live = await liveCredits(tx, ctx.tenantId, [id]);
        await reverse(ctx, tx, live);
        const [{ n }] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(pointsRecord)
          .where(
            and(
              eq(pointsRecord.tenantId, ctx.tenantId),
              eq(pointsRecord.eventType, POINTS_EVENT.village),
              or(eq(pointsRecord.bizId, id), like(pointsRecord.bizId, `${id}.%`)),
            ),
          );
        bizId = `${id}.${Number(n)}`;
      }
      if (points === 0) continue;
      await post(ctx, tx, [
        {
          villagerId: String(c.row.villagerId),
          points,
          eventType: POINTS_EVENT.village,
          bizId,
          recordDate: String(c.row.recordDate ?? '') || undefined,
          reason: `村务积分:${await ruleName(tx, c.row.ruleId)}`.slice(0, 200),
          floorAtZero: true,
        },
      ]);
    }
  },
  async afterDelete(ctx, ids, tx) {
    await reverse(ctx, tx, await liveCredits(tx, ctx.tenantId, ids));
  },
};

/** The tenant's first enabled rule awarding points for an event type, if any. */
async function ruleFor(tx: Db, tenantId: string, eventType: string) {
  const [rule] = await tx
    .select({ id: pointsRule.id, points: pointsRule.points, ruleName: pointsRule.ruleName })
    .from(pointsRule)
    .where(
      and(
        eq(pointsRule.tenantId, tenantId),
        eq(pointsRule.eventType, eventType),
        eq(pointsRule.enabled, 1),
        sql`${pointsRule.points} > 0`,
        notDeleted(pointsRule.isDeleted),
      ),
    )
    .orderBy(pointsRule.id)
    .limit(1);
  return rule;
}

/** Posts an event's credits; a rule the ledger refuses (off, out of its dates, over its cap) pays nothing. */
async function postWhileAllowed(ctx: RequestContext, tx: Db, entries: Parameters<typeof post>[2]) {
  if (!entries.length) return;
  // no SQL has failed when the ledger refuses, so the event's own transaction goes on
  await post(ctx, tx, entries).catch((err) => {
    if (!(err instanceof ApiError && err.status === 409)) throw err;
  });
}

/** 已完成 in the village's task_status dictionary */
const TASK_DONE = '3';

export const taskCredits: Pick<ResourceHooks, 'afterChange'> = {
  async afterChange(ctx, changes, tx) {
    const done = changes.filter(
      (c) =>
        String(c.row.taskStatus) === TASK_DONE &&
        c.row.assigneeId &&
        String(c.original?.taskStatus ?? '') !== TASK_DONE,
    );
    if (!done.length) return;
    const rule = await ruleFor(tx, ctx.tenantId, POINTS_EVENT.task);
    if (!rule) return;
    await postWhileAllowed(
      ctx,
      tx,
      done.map((c) => ({
        villagerId: String(c.row.assigneeId),
        points: Number(rule.points),
        eventType: POINTS_EVENT.task,
        bizId: String(c.row.id),
        ruleId: String(rule.id),
        reason: `完成任务:${String(c.row.title ?? '')}`.slice(0, 200),
      })),
    );
  },
};

export const evaluationCredits: Pick<ResourceHooks, 'afterChange'> = {
  async afterChange(ctx, changes, tx) {
    const published = changes.filter(
      (c) =>
        String(c.row.projectStatus) === PROJECT_STATUS.published &&
        String(c.original?.projectStatus ?? '') !== PROJECT_STATUS.published,
    );
    if (!published.length) return;
    const rule = await ruleFor(tx, ctx.tenantId, POINTS_EVENT.evaluation);
    if (!rule) return;
    for (const c of published) {
      // the entries naming a villager, with their standard competition places (ties share a place)
      const placed = rowsOf(
        await tx.execute(sql`select id, villager_id, place from (
          select id, villager_id, rank() over (order by total_score desc) as place from hope_evaluation_list
          where tenant_id = ${ctx.tenantId} and project_id = ${String(c.row.id)} and is_deleted = 0) ranked
          where villager_id is not null and place <= 3`),
      );
      await postWhileAllowed(
        ctx,
        tx,
        placed.map((e) => ({
          villagerId: String(e.villager_id),
          points: Number(rule.points),
          eventType: POINTS_EVENT.evaluation,
          bizId: String(e.id),
          ruleId: String(rule.id),
          reason: `评比结果:${String(c.row.name ?? '')} 第 ${Number(e.place)} 名`.slice(0, 200),
        })),
      );
    }
  },
};
