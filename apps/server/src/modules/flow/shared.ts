import { DEFAULT_TENANT_ID } from '@smart/contracts';
import { and, eq, getTableName, inArray, ne, or } from 'drizzle-orm';
import { z } from 'zod';
import { grantedCodes } from '../../platform/access/permissions';
import type { RequestContext } from '../../platform/auth/context';
import { type Db, schema } from '../../platform/db';
import { keptWhileUnchanged } from '../../platform/db/changes';
import { dictValueIn } from '../../platform/dicts';
import { formatDateTime } from '../../platform/format';
import { forbidden, notFound } from '../../platform/http/errors';
import type { Lang } from '../../platform/http/messages';
import { notDeleted } from '../../platform/sql';
import { claimableBy } from './service/tasks';
import { flowInstance, flowTask } from './tables';

/** What the flow routes (work lists, models, deployments, follow, diagrams) and the form modules share. */

/** A list row's date-time, '' when there is none. */
export const dt = (d: Date | null | undefined) => (d ? formatDateTime(d) : '');

/** The tenants a deployment is for: '' or none = every tenant (通用), else a comma list or an array (定制). */
export const tenantList = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (Array.isArray(v) ? v : v ? v.split(',') : []).map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.string().regex(/^\d{6}$/)).max(500));

/** Deploying, suspending and removing definitions is the platform tenant's business: anyone else gets 403. */
export function platformOnly(ctx: RequestContext) {
  if (ctx.tenantId !== DEFAULT_TENANT_ID) throw forbidden();
}

/** The `flow` dictionary's categories by language, read at most every few seconds (list rows name them). */
const categories = new Map<Lang, { at: number; rows: Promise<{ key: string; value: string }[]> }>();
function flowCategories(db: Db, lang: Lang) {
  const kept = categories.get(lang);
  if (kept && Date.now() - kept.at < 5_000) return kept.rows;
  const rows = db
    .select({ key: schema.dict.dictKey, value: dictValueIn(lang) })
    .from(schema.dict)
    .where(
      and(eq(schema.dict.code, 'flow'), ne(schema.dict.parentId, '0'), notDeleted(schema.dict.isDeleted)),
    )
    // a promise, not the query builder: awaiting a builder runs its query again every time (this one ran at
    // every to-do list)
    .then((found) => found);
  categories.set(lang, { at: Date.now(), rows });
  rows.catch(() => categories.delete(lang));
  return rows;
}

const USER_TABLES = [getTableName(schema.user)];

/** Names of users and of the `flow` dictionary's categories (in the request's language), for list rows. */
export async function names(db: Db, userIds: (string | null)[], lang: Lang) {
  const ids = [...new Set(userIds.filter((x): x is string => !!x))];
  // side by side: a list's answer waits for one round trip, not two
  const [users, cats] = await Promise.all([
    ids.length
      ? // kept while no user changes: every to-do list and instance page names the same few people
        keptWhileUnchanged(db, USER_TABLES, `names|${[...ids].sort().join(',')}`, () =>
          db
            .select({ id: schema.user.id, name: schema.user.realName, account: schema.user.account })
            .from(schema.user)
            .where(inArray(schema.user.id, ids))
            .then((found) => found),
        )
      : [],
    flowCategories(db, lang),
  ]);
  return {
    user: (id: string | null) => {
      const u = users.find((x) => x.id === id);
      return u ? u.name || u.account : '';
    },
    category: (key: string | null) => cats.find((c) => c.key === key)?.value ?? '',
  };
}

/**
 * A process instance the caller may read (its timeline, diagram, business record): one of its tenant, and
 * the caller started it, holds or held one of its tasks, may claim one, or follows processes (flow_follow,
 * the administrators). Anyone else is told it does not exist.
 */
export async function readableInstance(db: Db, ctx: RequestContext, processInstanceId: string) {
  const [i] = await db
    .select()
    .from(flowInstance)
    .where(
      and(eq(flowInstance.processInstanceId, processInstanceId), eq(flowInstance.tenantId, ctx.tenantId)),
    )
    .limit(1);
  if (!i) throw notFound();
  if (i.startUser === ctx.userId) return i;
  if ((await grantedCodes(db, ctx.roleIds)).has('flow_follow')) return i;
  const [task] = await db
    .select({ id: flowTask.id })
    .from(flowTask)
    .where(
      and(
        eq(flowTask.processInstanceId, i.processInstanceId),
        or(eq(flowTask.assignee, ctx.userId), await claimableBy(db, ctx)),
      ),
    )
    .limit(1);
  if (!task) throw notFound();
  return i;
}
