import { isId } from '@smart/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import { type Db, schema } from '../../platform/db';
import { FieldInputError, notFound } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { notDeleted } from '../../platform/sql';
import { countersignById } from './countersigns';
import { visibleDefinition } from './service/deploy';

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
  return new Set([...xml.replace(/<!--[\s\S]*?-->/g, '').matchAll(COLLECTION)].map((m) => m[2]));
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
  await checkUserLists(db, ctx.tenantId, lists);
  return lists;
}

/** Each list: at least one, at most 100, distinct live users of the tenant (a 400 naming `variables`). */
async function checkUserLists(db: Db, tenantId: string, lists: Record<string, unknown>) {
  for (const [variable, list] of Object.entries(lists))
    if (!Array.isArray(list) || !list.length || list.length > 100)
      throw new FieldInputError('variables', {
        zh: `${variable} 应为一至一百位审批人的列表`,
        en: `${variable} must be a list of one to a hundred approvers`,
      });
  const ids = Object.values(lists).flat() as unknown[];
  // an id that is no id is nobody: never put to the database as one
  const known = await liveUsersOf(
    db,
    tenantId,
    ids.filter((id): id is string => typeof id === 'string' && isId(id)),
  );
  for (const [variable, list] of Object.entries(lists) as [string, unknown[]][]) {
    if (list.some((id) => typeof id !== 'string' || !known.has(id)))
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
}

const ATTRS = `(?:[^>"'/]|"[^"]*"|'[^']*'|/(?!>))*`;
/** a user task, its start tag's attributes and its content (none when it closes itself) */
const USER_TASK = new RegExp(
  String.raw`<((?:[\w.-]+:)?userTask)(\s${ATTRS})?(?:/>|>([\s\S]*?)</\1\s*>)`,
  'g',
);
const LOOP = new RegExp(String.raw`<(?:[\w.-]+:)?multiInstanceLoopCharacteristics(\s${ATTRS})?/?>`);
const ELEMENT_VARIABLE = /\s[\w.-]+:elementVariable\s*=\s*(["'])\s*([A-Za-z_][A-Za-z0-9_]*)\s*\1/;

/**
 * The approver lists of a diagram: the collection variable of each countersign — a multi-instance user task
 * whose element variable names who gets it (`camunda:assignee="${approver}"`, candidates, a performer). A
 * task that goes through a list of anything else (documents, households) is not one.
 */
export function approverVariables(xml: string): Set<string> {
  const found = new Set<string>();
  for (const task of xml.replace(/<!--[\s\S]*?-->/g, '').matchAll(USER_TASK)) {
    const [, , attrs = '', body = ''] = task;
    const loop = LOOP.exec(body);
    if (!loop) continue;
    const collection = [...` ${loop[1] ?? ''}`.matchAll(COLLECTION)][0]?.[2];
    const element = ELEMENT_VARIABLE.exec(loop[1] ?? '')?.[2];
    if (!collection || !element) continue;
    const rest = attrs + body.replace(loop[0], '');
    if (new RegExp(String.raw`[$#]\{\s*${element}\s*\}`).test(rest)) found.add(collection);
  }
  return found;
}

/**
 * What complete-task sends for the countersigns after the task (its handler picked their approvers): every
 * variable that is an approver list of the diagram must be one to a hundred distinct live users of the
 * tenant; anything else is a 400 naming `variables`, never the database's error.
 */
export async function checkTaskApprovers(
  db: Db,
  tenantId: string,
  xml: string,
  variables: Record<string, unknown> | undefined,
) {
  const names = Object.keys(variables ?? {});
  if (!names.length) return;
  const approvers = approverVariables(xml);
  const lists = Object.fromEntries(
    names.filter((n) => approvers.has(n)).map((n) => [n, (variables as Record<string, unknown>)[n]]),
  );
  if (Object.keys(lists).length) await checkUserLists(db, tenantId, lists);
}

/**
 * The engine's refusal of a multi-instance step reached without its list (bpmn-elements: `<sign>
 * cardinality or collection is required …`) as the 400 a form shows — whose approvers are still to be
 * picked, and as which variable —; undefined for any other error.
 */
export function missingList(xml: string, e: unknown): FieldInputError | undefined {
  const id = /^<([^>]+)> cardinality\b.*\bis required\b/.exec(e instanceof Error ? e.message : '')?.[1];
  if (!id) return undefined;
  const step = countersignById(xml, id);
  return step
    ? new FieldInputError('variables', {
        zh: `请选择「${step.name}」的审批人(流程变量 ${step.variable})`,
        en: `Please pick the approvers of “${step.name}” (process variable ${step.variable})`,
      })
    : new FieldInputError('variables', {
        zh: `「${id}」没有可逐项办理的列表`,
        en: `“${id}” has no list to go through`,
      });
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
  const def = await visibleDefinition(db, ctx.tenantId, processDefinitionId);
  if (!def) throw notFound();
  return def.xml;
}
