import type { ProbationDue } from '@smart/contracts';
import { and, asc, eq, lte, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import { endpoint } from '../../platform/crud/endpoints';
import { mountedResource } from '../../platform/crud/refs';
import { insertRows } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { formatDateTime, today } from '../../platform/format';
import { notDeleted } from '../../platform/sql';
import { villager } from '../village/tables';
import { villagerToParty as m, partyOrganization as org } from './tables';

/**
 * Views of party resources beyond their lists, declared on their bindings (hooks.ts): the engine mounts
 * them under the resource's path with its permission code and hands them the caller's row constraint.
 */

const DAY = 86_400_000;
const ymd = (d: Date) => d.toISOString().slice(0, 10);
const plusDays = (day: string, n: number) => ymd(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY));

const dueQuery = z
  .object({
    /** within how many days from `on` a probation ends (overdue ones are answered too: still probationary) */
    days: z.coerce.number().int().min(0).max(366).default(30),
    /** the day counted from (default today): a test, or a look at a day ahead */
    on: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)))
      .optional(),
  })
  .strict();

/** Probationary members whose probation ends by `on + days` (overdue included), within the caller's rows. */
async function dueMembers(db: Db, scope: SQL, days: number, on: string): Promise<ProbationDue[]> {
  const until = plusDays(on, days);
  const rows = await db
    .select({
      id: m.id,
      villagerId: m.villagerId,
      villagerName: villager.name,
      orgName: org.name,
      joinDate: m.joinDate,
      probationEnd: m.probationEnd,
    })
    .from(m)
    .leftJoin(
      villager,
      and(eq(villager.id, m.villagerId), eq(villager.tenantId, m.tenantId), notDeleted(villager.isDeleted)),
    )
    .leftJoin(org, and(eq(org.id, m.orgId), eq(org.tenantId, m.tenantId), notDeleted(org.isDeleted)))
    .where(and(scope, eq(m.memberType, '2'), lte(m.probationEnd, until)))
    .orderBy(asc(m.probationEnd), asc(m.id));
  return rows.map((r) => {
    const end = String(r.probationEnd);
    return {
      id: String(r.id),
      villagerId: String(r.villagerId),
      villagerName: r.villagerName ?? '',
      orgName: r.orgName ?? null,
      joinDate: String(r.joinDate),
      probationEnd: end,
      daysLeft: Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${on}T00:00:00Z`)) / DAY),
    };
  });
}

/** `villagerToParty/probation-due?days=30`: the probationary members to be reviewed for full membership. */
export const probationDueEndpoint = endpoint({
  method: 'GET',
  path: 'probation-due',
  query: dueQuery,
  async handler({ resource, scope, query: q }) {
    return dueMembers(resource.db, scope, q.days, q.on ?? today());
  },
});

/**
 * `villagerToParty/probation-notice?days=30` (POST): the same members, posted as one notice of the tenant's
 * 通知公告 (written through the notice resource's write path), once per day and list: asking again the same
 * day with nobody new answers the notice already there.
 */
export const probationNoticeEndpoint = endpoint({
  method: 'POST',
  path: 'probation-notice',
  codeSuffix: ['_add', '_edit'],
  query: dueQuery,
  async handler({ resource, scope, ctx, query: q }) {
    const on = q.on ?? today();
    const due = await dueMembers(resource.db, scope, q.days, on);
    if (!due.length) return { due: 0, noticeId: null, created: false };
    return postNotice(resource.db, ctx, on, due);
  },
});

async function postNotice(db: Db, ctx: RequestContext, on: string, due: ProbationDue[]) {
  const notices = mountedResource('notice');
  const title = `预备党员转正提醒 Probation ending (${on}): ${due.length} 人 members`;
  const content = due
    .map(
      (d) =>
        `${d.villagerName}${d.orgName ? `(${d.orgName})` : ''}: 预备期 ${d.probationEnd} 期满 / probation ends ${d.probationEnd}`,
    )
    .join('\n');
  const cols = notices.cols;
  const tenantRows = await notices.tenantConstraint(ctx);
  const [same] = await db
    .select({ id: cols.id })
    .from(notices.table)
    .where(and(tenantRows, eq(cols.title, title), eq(cols.content, content)))
    .limit(1);
  if (same) return { due: due.length, noticeId: String(same.id), created: false };
  const [written] = await db.transaction((tx) =>
    insertRows(
      notices,
      ctx,
      tx as unknown as Db,
      [{ title, category: '1', releaseTime: formatDateTime(new Date()), content }],
      { answer: true },
    ),
  );
  notices.changed();
  return { due: due.length, noticeId: String(written.row.id), created: true };
}
