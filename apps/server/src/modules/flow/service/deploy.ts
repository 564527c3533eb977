/**
 * Deployments: a file checked (runtime/inspect.ts) and deployed as a new version of its process, with the
 * start events that wait for a timer, a message or a signal written to flow_wait; deployments removed
 * (their running instances ended, when the caller confirms). Which definitions a tenant sees.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, getTableName, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { RequestContext } from '../../../platform/auth/context';
import type { Db } from '../../../platform/db';
import { keptWhileUnchanged } from '../../../platform/db/changes';
import { FieldInputError, notFound } from '../../../platform/http/errors';
import { notDeleted } from '../../../platform/sql';
import { DiagramRefusal, inspectDiagram } from '../runtime/inspect';
import { withDefinitionsId } from '../runtime/moddle';
import { startTimersOf } from '../runtime/starts';
import { flowDefinition, flowDeployment, flowInstance, flowWait } from '../tables';
import { FLOW_TEXTS, stored, textOf } from '../texts';
import { endInstance } from './ending';

/** Definitions a tenant may use: deployed for every tenant ('') or for it by name. */
export function definitionVisibleTo(tenantId: string): SQL {
  return or(
    eq(flowDefinition.tenantIds, ''),
    sql`(',' || ${flowDefinition.tenantIds} || ',') like ${`%,${tenantId},%`}`,
  ) as SQL;
}

const DEFINITION_TABLES = [getTableName(flowDefinition)];

/**
 * A definition the tenant may use, by its id (undefined when there is none). A deployed definition changes
 * only when it is suspended, removed or deployed again: it is kept while the table is unchanged. `db` is the
 * database's handle, asked before a transaction opens (a transaction's reads are never kept, and PGlite would
 * wait for the transaction to end).
 */
export function visibleDefinition(db: Db, tenantId: string, processDefinitionId: string) {
  return keptWhileUnchanged(db, DEFINITION_TABLES, `visible|${tenantId}|${processDefinitionId}`, () =>
    db
      .select()
      .from(flowDefinition)
      .where(
        and(
          eq(flowDefinition.processDefinitionId, processDefinitionId),
          notDeleted(flowDefinition.isDeleted),
          definitionVisibleTo(tenantId),
        ),
      )
      .limit(1)
      .then(([found]) => found),
  );
}

export interface DeployFile {
  name: string;
  xml: string;
}

/** Checks every file first; one bad file deploys nothing. */
export async function deploy(
  db: Db,
  ctx: RequestContext,
  input: { name?: string; category?: string; tenantIds: string[]; files: DeployFile[] },
) {
  if (!input.files.length) throw new FieldInputError('files', FLOW_TEXTS.noFile);
  const inspected: { file: DeployFile; info: Awaited<ReturnType<typeof inspectDiagram>> }[] = [];
  for (const f of input.files) {
    try {
      inspected.push({ file: f, info: await inspectDiagram(f.xml) });
    } catch (e) {
      const reason = e instanceof DiagramRefusal ? e.text : (e as Error).message;
      throw new FieldInputError('files', textOf(FLOW_TEXTS.notDeployable, { file: f.name, reason }));
    }
  }
  const tenantIds = [...new Set(input.tenantIds)].join(',');
  return db.transaction(async (tx) => {
    const [deployment] = await tx
      .insert(flowDeployment)
      .values({
        name: input.name || inspected[0].info.name,
        category: input.category ?? null,
        tenantIds,
        createUser: ctx.userId,
        createDept: ctx.deptId || null,
      })
      .returning({ id: flowDeployment.id });
    const created = [];
    for (const { file, info } of inspected) {
      const [{ v }] = await tx
        .select({ v: sql<number>`coalesce(max(${flowDefinition.version}), 0) + 1` })
        .from(flowDefinition)
        .where(eq(flowDefinition.processKey, info.processKey));
      const [row] = await tx
        .insert(flowDefinition)
        .values({
          deploymentId: deployment.id,
          processDefinitionId: `${info.processKey}:${v}:${randomUUID().slice(0, 8)}`,
          processKey: info.processKey,
          name: info.name,
          version: Number(v),
          category: input.category ?? null,
          tenantIds,
          resourceName: file.name,
          // (a file without an id on its definitions gets one: what the engine finds a saved state's diagram by)
          xml: withDefinitionsId(file.xml, `Definitions_${info.processKey}`),
          createUser: ctx.userId,
        })
        .returning();
      created.push(row);
      // a timer start event: the new version's timers replace the older versions'
      const timers = startTimersOf(info.startTimers);
      if (timers.length) {
        await tx
          .update(flowWait)
          .set({ firedAt: new Date() })
          .where(
            and(
              eq(flowWait.kind, 'start-timer'),
              eq(flowWait.tenantId, ctx.tenantId),
              isNull(flowWait.firedAt),
              inArray(
                flowWait.definitionId,
                tx
                  .select({ id: flowDefinition.id })
                  .from(flowDefinition)
                  .where(eq(flowDefinition.processKey, info.processKey)),
              ),
            ),
          );
        await tx.insert(flowWait).values(
          timers.map((t) => ({
            tenantId: ctx.tenantId,
            kind: 'start-timer',
            definitionId: row.id,
            activityId: t.activityId,
            dueAt: t.dueAt,
            repeat: t.repeat,
            spec: t.spec,
            createTime: new Date(),
          })),
        );
      }
      // message and signal start events: what startByEvent looks up (only the latest version's count)
      if (info.startEvents.length)
        await tx.insert(flowWait).values(
          info.startEvents.map((e) => ({
            tenantId: ctx.tenantId,
            kind: `start-${e.kind}`,
            definitionId: row.id,
            activityId: e.activityId,
            name: e.name.slice(0, 255),
            createTime: new Date(),
          })),
        );
    }
    return { deploymentId: deployment.id, definitions: created };
  });
}

/** Removes deployments; refused while their instances run unless `cascade` ends those instances too. */
export async function deleteDeployments(
  db: Db,
  ctx: RequestContext,
  deploymentIds: string[],
  cascade: boolean,
) {
  await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const defs = await tx
      .select({ id: flowDefinition.id, pdid: flowDefinition.processDefinitionId })
      .from(flowDefinition)
      .where(and(inArray(flowDefinition.deploymentId, deploymentIds), notDeleted(flowDefinition.isDeleted)));
    if (!defs.length) throw notFound();
    const running = await tx
      .select({ piid: flowInstance.processInstanceId })
      .from(flowInstance)
      .where(
        and(
          inArray(
            flowInstance.definitionId,
            defs.map((d) => d.id),
          ),
          eq(flowInstance.state, 'running'),
        ),
      );
    if (running.length && !cascade)
      throw new FieldInputError(
        'deploymentIds',
        textOf(FLOW_TEXTS.deploymentRunning, { count: running.length }),
      );
    // (an instance called by another one already ended with its caller)
    for (const r of running)
      await endInstance(tx, r.piid, stored('deploymentRemoved'), { userId: ctx.userId });
    await tx
      .update(flowDefinition)
      .set({ isDeleted: 1, updateUser: ctx.userId, updateTime: new Date() })
      .where(inArray(flowDefinition.deploymentId, deploymentIds));
    await tx
      .update(flowDeployment)
      .set({ isDeleted: 1, updateUser: ctx.userId, updateTime: new Date() })
      .where(inArray(flowDeployment.id, deploymentIds));
  });
}
