import type { HomeTask, HomeWorkplace } from '@smart/contracts';
import { and, asc, count, desc, eq, gt, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { grantedCodes } from '../../platform/access/permissions';
import { type RequestContext, requireCtx } from '../../platform/auth/context';
import { mountedByKey, readableRows } from '../../platform/crud/refs';
import { type Db, schema } from '../../platform/db';
import { dictLabels } from '../../platform/dicts';
import { ok } from '../../platform/http/envelope';
import type { Lang } from '../../platform/http/messages';
import type { KvStore } from '../../platform/kv';
import { notDeleted, qualified } from '../../platform/sql';
import { SERVER_AREAS } from '../areas';
import { roleNames } from '../auth/signin';
import { claimableBy } from '../flow/service';
import { dt, names } from '../flow/shared';
import { flowInstance, flowTask } from '../flow/tables';
import { assignedTasks, runningApplications } from '../flow/work';
import { deviceAlarm } from '../telemetry/tables';

/**
 * 首页 (/wel/index): the caller's workplace in one answer — to-dos and claimable tasks (the five oldest),
 * running applications, the latest notices, the figures of the areas the caller may open, and what is new
 * since the previous sign-in. A part exists only when one of the caller's roles holds its menu code, and
 * every count reads through the same constraints as the part's own screen (the work lists' task
 * conditions; the resources' tenant + live rows + data scope).
 */

const OLDEST = 5;

/**
 * The areas' figures (`AreaDef.home`, which rows each counts: `ServerArea.home`), in their declared order:
 * the resource it counts and whose screen it opens, its name, and which rows.
 */
const FIGURES = SERVER_AREAS.flatMap((part) =>
  (part.area.home ?? []).map((f) => ({ ...f, where: part.home?.[f.key] })),
).sort((a, b) => a.order - b.order);

/** The `flow` dictionary's form families by category (the web's flowRoutes, read on the server). */
async function flowFamilies(db: Db) {
  const rows = await db
    .select({ key: schema.dict.dictKey, remark: schema.dict.remark })
    .from(schema.dict)
    .where(
      and(eq(schema.dict.code, 'flow'), ne(schema.dict.parentId, '0'), notDeleted(schema.dict.isDeleted)),
    );
  return (category: string | null) => rows.find((r) => r.key === category)?.remark?.trim() ?? '';
}

/**
 * The previous sign-in of this session's account: the latest `sign-in` of the usual log before the token
 * family's first token was issued. Kept per family, so a refreshed token still compares with the sign-in
 * before this session, not with this session's own.
 */
async function previousSignIn(db: Db, kv: KvStore, ctx: RequestContext): Promise<Date | null> {
  const key = `home-since:${ctx.token.fid}`;
  const kept = await kv.get(key);
  if (kept !== null) return kept ? new Date(Number(kept)) : null;
  const u = schema.logUsual;
  const [row] = await db
    .select({ at: u.createTime })
    .from(u)
    .where(
      and(
        eq(u.tenantId, ctx.tenantId),
        eq(u.logId, 'sign-in'),
        eq(u.createBy, ctx.account),
        // this sign-in's own row is written after its token was issued
        lt(u.createTime, new Date(ctx.token.iat * 1000)),
      ),
    )
    .orderBy(desc(u.createTime))
    .limit(1);
  const at = row?.at ?? null;
  await kv.set(key, at ? String(at.getTime()) : '', 14 * 24 * 3600);
  return at;
}

async function taskPart(
  db: Db,
  where: SQL,
  lang: Lang,
  family: (category: string | null) => string,
): Promise<{ total: number; oldest: HomeTask[] }> {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        taskId: flowTask.id,
        taskName: flowTask.name,
        createTime: flowTask.createTime,
        processInstanceId: flowInstance.processInstanceId,
        processName: flowInstance.processName,
        businessId: flowInstance.businessId,
        category: flowInstance.category,
        startUser: flowInstance.startUser,
      })
      .from(flowTask)
      .innerJoin(flowInstance, eq(flowInstance.processInstanceId, flowTask.processInstanceId))
      .where(where)
      .orderBy(asc(flowTask.createTime), asc(flowTask.id))
      .limit(OLDEST),
    db
      .select({ total: count() })
      .from(flowTask)
      .innerJoin(flowInstance, eq(flowInstance.processInstanceId, flowTask.processInstanceId))
      .where(where),
  ]);
  const n = await names(
    db,
    rows.map((r) => r.startUser),
    lang,
  );
  const now = Date.now();
  return {
    total: Number(total),
    oldest: rows.map((r) => ({
      taskId: String(r.taskId),
      taskName: r.taskName ?? '',
      processInstanceId: r.processInstanceId,
      processName: r.processName,
      businessId: r.businessId ?? '',
      route: family(r.category),
      startUserName: n.user(r.startUser),
      createTime: dt(r.createTime),
      waited: Math.max(0, Math.floor((now - r.createTime.getTime()) / 1000)),
    })),
  };
}

export async function homeRoutes(app: FastifyInstance) {
  const { db, kv } = app.deps;

  app.get('/home', async (req) => {
    const ctx = requireCtx(req);
    const codes = await grantedCodes(db, ctx.roleIds);
    const has = (code: string) => codes.has(code);
    const work = has('work_todo') || has('work_claim') || has('work_send');
    const [family, since, roles] = await Promise.all([
      work ? flowFamilies(db) : () => '',
      previousSignIn(db, kv, ctx),
      roleNames(db, ctx.roleIds, req.lang),
    ]);
    const answer: HomeWorkplace = { roleName: roles.map((r) => r.roleName).join(','), figures: [] };
    const jobs: Promise<unknown>[] = [];
    const changes: NonNullable<HomeWorkplace['since']> | undefined = since ? { at: dt(since) } : undefined;

    if (has('work_todo'))
      jobs.push(
        assignedTasks(0)(ctx).then(async (where) => {
          answer.todo = await taskPart(db, where, req.lang, family);
          if (changes) {
            const [{ n }] = await db
              .select({ n: count() })
              .from(flowTask)
              .where(and(where, gt(flowTask.createTime, since as Date)));
            changes.todo = Number(n);
          }
        }),
      );
    if (has('work_claim'))
      jobs.push(
        claimableBy(db, ctx).then(async (where) => {
          answer.claim = await taskPart(db, where, req.lang, family);
        }),
      );
    if (has('work_send'))
      jobs.push(
        (async () => {
          const where = runningApplications(ctx);
          const [rows, [{ total }]] = await Promise.all([
            db
              .select({
                processInstanceId: flowInstance.processInstanceId,
                processName: flowInstance.processName,
                businessId: flowInstance.businessId,
                category: flowInstance.category,
                startTime: flowInstance.startTime,
                current: sql<string>`(select string_agg(t.name, ',') from flow_task t where t.process_instance_id = ${qualified(flowInstance.processInstanceId)} and t.status = 0)`,
              })
              .from(flowInstance)
              .where(where)
              .orderBy(desc(flowInstance.startTime), desc(flowInstance.id))
              .limit(OLDEST),
            db.select({ total: count() }).from(flowInstance).where(where),
          ]);
          answer.running = {
            total: Number(total),
            latest: rows.map((r) => ({
              processInstanceId: r.processInstanceId,
              processName: r.processName,
              businessId: r.businessId ?? '',
              route: family(r.category),
              current: r.current ?? '',
              startTime: dt(r.startTime),
            })),
          };
        })(),
      );

    const notice = mountedByKey.get('notice');
    if (notice && has(notice.def.permission))
      jobs.push(
        (async () => {
          const where = await readableRows('notice', ctx);
          const released = notice.cols.releaseTime;
          // the latest, down the (tenant, release time) index: those released since the previous sign-in are
          // the newest of them (nothing records who read what). Ordering by "is it fresh" first, as this once
          // did, sorted every notice of the tenant on each home, and a long day's notices made every request
          // of the server slower (bench/soak.mjs: 1.6–1.9× at 70 000 notices)
          const [rows, labels] = await Promise.all([
            db
              .select({
                id: notice.cols.id,
                title: notice.cols.title,
                category: notice.cols.category,
                releaseTime: released,
              })
              .from(notice.table)
              .where(where)
              .orderBy(desc(released), desc(notice.cols.id))
              .limit(OLDEST),
            dictLabels(db, ['notice'], req.lang),
          ]);
          const categories = labels.get('notice') ?? [];
          answer.notices = rows.map((r) => ({
            id: String(r.id),
            title: String(r.title ?? ''),
            categoryName: categories.find((c) => c.key === String(r.category))?.value ?? '',
            releaseTime: dt(r.releaseTime as Date | null),
            fresh: !!since && !!r.releaseTime && (r.releaseTime as Date) > since,
          }));
          if (changes) {
            const [{ n }] = await db
              .select({ n: count() })
              .from(notice.table)
              .where(and(where, gt(released, since as Date)));
            changes.notices = Number(n);
          }
        })(),
      );

    const figures: (HomeWorkplace['figures'][number] | undefined)[] = FIGURES.map(() => undefined);
    FIGURES.forEach((f, i) => {
      const m = mountedByKey.get(f.resource);
      if (!m || !has(m.def.permission)) return;
      jobs.push(
        (async () => {
          const where = await readableRows(f.resource, ctx);
          const [{ n }] = await db
            .select({ n: count() })
            .from(m.table)
            .where(and(where, f.where?.(m)));
          figures[i] = { key: f.key, name: f.label[req.lang], value: Number(n), route: m.def.route };
          if (f.resource === 'deviceAlarm' && changes) {
            const [{ n: raised }] = await db
              .select({ n: count() })
              .from(deviceAlarm)
              .where(and(where, gt(deviceAlarm.raisedAt, since as Date)));
            changes.alarms = Number(raised);
          }
        })(),
      );
    });

    await Promise.all(jobs);
    answer.figures = figures.filter((f) => !!f);
    if (changes) answer.since = changes;
    return ok(req, answer);
  });
}
