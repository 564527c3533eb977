import { DEFAULT_TENANT_ID } from '@smart/contracts';
import type { RequestContext } from '../auth/context';
import type { Db } from '../db';
import { forbidden, invalidField } from '../http/errors';
import { isAdministrator } from './privileges';

/**
 * The tenant whose rows a picker tree answers (spec §7 `dept/tree (tenantId)`, `role/tree (tenantId)`):
 * the caller's own when none or its own is named; another tenant's only for the platform administrator (an
 * administrator of tenant 000000), who edits users of any tenant. Anyone else naming another tenant is
 * refused: never another tenant's rows.
 */
export async function pickedTenant(db: Db, ctx: RequestContext, tenantId: unknown): Promise<RequestContext> {
  const raw = Array.isArray(tenantId) ? tenantId[0] : tenantId;
  if (raw === undefined || raw === null || raw === '') return ctx;
  if (typeof raw !== 'string' || !/^\d{6}$/.test(raw)) throw invalidField('tenantId');
  if (raw === ctx.tenantId) return ctx;
  if (ctx.tenantId !== DEFAULT_TENANT_ID || !(await isAdministrator(db, ctx))) throw forbidden();
  return { ...ctx, tenantId: raw };
}
