import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import { type Db, schema } from '../../platform/db';
import { FieldInputError, notFound } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { notDeleted } from '../../platform/sql';
import { definitionVisibleTo } from './service/deploy';
import { flowDefinition } from './tables';

/**
 * The approver lists a start form sends for the countersigns (会签, 或签) its process begins with: each a
 * multi-instance user task's collection variable (`${approvers}`) and the ids of the users who each get
 * an instance of the task.
 */
export const ApproverLists = z
  .record(
    z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .max(64),
    z.array(idString).min(1).max(100),
  )
  .optional();

/** `approvers` of every `…:collection="${approvers}"` (or `#{…}`) of a diagram. */
const COLLECTION = /\s[\w.-]+:collection\s*=\s*(["'])\s*[$#]\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\s*\1/g;

export function collectionVariables(xml: string): Set<string> {
  return new Set([...xml.matchAll(COLLECTION)].map((m) => m[2]));
}

/**
 * Checks the lists against the definition and the tenant: only a countersign's collection variable, each
 * a list of distinct live users of the caller's tenant. Answers the lists to put into the process.
 */
export async function checkApproverLists(
  db: Db,
  ctx: RequestContext,
  xml: string,
  lists: Record<string, string[]> | undefined,
): Promise<Record<string, string[]>> {
  if (!lists || !Object.keys(lists).length) return {};
  const allowed = collectionVariables(xml);
  const refused = Object.keys(lists).find((k) => !allowed.has(k));
  if (refused)
    throw new FieldInputError('variables', {
      zh: `流程中没有以 ${refused} 为审批人列表的多人审批`,
      en: `No countersign of this process takes its approvers from ${refused}`,
    });
  const known = await liveUsersOf(db, ctx.tenantId, Object.values(lists).flat());
  for (const [variable, list] of Object.entries(lists)) {
    if (list.some((id) => !known.has(id)))
      throw new FieldInputError('variables', {
        zh: `${variable} 中的审批人不存在`,
        en: `An approver in ${variable} does not exist`,
      });
    if (new Set(list).size !== list.length)
      throw new FieldInputError('variables', {
        zh: `${variable} 中有重复的审批人`,
        en: `${variable} names an approver twice`,
      });
  }
  return lists;
}

/** Which of `ids` are live, enabled users of the tenant (who may be given a task). */
export async function liveUsersOf(db: Db, tenantId: string, ids: string[]): Promise<Set<string>> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return new Set();
  const live = await db
    .select({ id: schema.user.id })
    .from(schema.user)
    .where(
      and(
        inArray(schema.user.id, wanted),
        eq(schema.user.tenantId, tenantId),
        notDeleted(schema.user.isDeleted),
        eq(schema.user.status, 1),
      ),
    );
  return new Set(live.map((u) => String(u.id)));
}

/** The diagram of a definition the caller's tenant may start (404 for any other). */
export async function startableXml(
  db: Db,
  ctx: RequestContext,
  processDefinitionId: string,
): Promise<string> {
  const [def] = await db
    .select({ xml: flowDefinition.xml })
    .from(flowDefinition)
    .where(
      and(
        eq(flowDefinition.processDefinitionId, processDefinitionId),
        notDeleted(flowDefinition.isDeleted),
        definitionVisibleTo(ctx.tenantId),
      ),
    )
    .limit(1);
  if (!def) throw notFound();
  return def.xml;
}
