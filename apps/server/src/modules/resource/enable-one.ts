import { and, eq, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import type { MountedResource } from '../../platform/crud/binding';
import { liveRows, transaction } from '../../platform/crud/write';
import { invalidField } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';

/**
 * "Enable" of a tenant's configs where exactly one is in use (对象存储, 短信配置): in one transaction under
 * the tenant's lock for that table, this config is enabled and every other of the tenant disabled, each
 * through the write path (the row found within the caller's constraint, else 404).
 */
export async function enableOnly(
  m: MountedResource,
  ctx: RequestContext,
  scope: ReturnType<typeof and>,
  id: string,
) {
  return transaction(m.db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${m.def.table}:enable:${ctx.tenantId}`}))`);
    await m.patch(ctx, tx, id, { enabled: 1 }, scope);
    const tenant = await m.tenantConstraint(ctx);
    const others = await tx
      .select({ id: m.cols.id })
      .from(m.table)
      .where(and(tenant, eq(m.cols.enabled, 1), ne(m.cols.id, id), ...liveRows(m)));
    for (const o of others) await m.patch(ctx, tx, String(o.id), { enabled: 0 }, tenant);
    return { id, enabled: 1, disabled: others.map((o) => String(o.id)) };
  });
}

/** The config an action is for: `{ id }` in the body (the console) or `?id=` (the family's clients). */
export const idIn = z.object({ id: idString.optional() }).strict();
export function theId(query: { id?: string }, body: { id?: string }): string {
  const id = body.id ?? query.id;
  if (!id) throw invalidField('id');
  return id;
}
