/**
 * flowRoutes (spec §3): the `flow` dictionary maps a process category to the pages of its form —
 * routeKey = code + '_' + dictKey (e.g. `flow_1`), routeValue = remark (e.g. `leave`) — so category 1 starts
 * at /work/process/leave/form/{processDefinitionId}, is handled at …/handle/{taskId}/{processInstanceId}/
 * {businessId} and read at …/detail/{processInstanceId}/{businessId}. A family with pages of its own
 * (leave) has them registered first; every other family (`expense`, …) opens the generic application
 * pages at the same paths (APPLY_PATTERNS).
 */
import type { DictEntry } from '@smart/contracts/core';

export interface FlowRoute {
  routeKey: string;
  routeValue: string;
}

export function flowRoutesOf(entries: readonly DictEntry[] | undefined): FlowRoute[] {
  return (entries ?? [])
    .filter((e) => e.remark?.trim())
    .map((e) => ({ routeKey: `${e.code}_${e.dictKey}`, routeValue: e.remark.trim() }));
}

/** The form family of a category (`leave`), or '' when the dictionary names none. */
export function routeOf(routes: readonly FlowRoute[], category: string | null | undefined): string {
  if (!category) return '';
  return routes.find((r) => r.routeKey === `flow_${category}`)?.routeValue ?? '';
}

const seg = (v: string) => encodeURIComponent(v);

export const processPaths = {
  form: (route: string, processDefinitionId: string) =>
    `/work/process/${seg(route)}/form/${seg(processDefinitionId)}`,
  handle: (route: string, taskId: string, processInstanceId: string, businessId: string) =>
    `/work/process/${seg(route)}/handle/${seg(taskId)}/${seg(processInstanceId)}/${seg(businessId)}`,
  detail: (route: string, processInstanceId: string, businessId: string) =>
    `/work/process/${seg(route)}/detail/${seg(processInstanceId)}/${seg(businessId)}`,
};

/** The route patterns of the leave pages (spec §2), registered in features/registry.ts. */
export const LEAVE_PATTERNS = {
  form: '/work/process/leave/form/:processDefinitionId',
  handle: '/work/process/leave/handle/:taskId/:processInstanceId/:businessId',
  detail: '/work/process/leave/detail/:processInstanceId/:businessId',
} as const;

/** The generic application pages (registered after the leave pages, whose static segment wins). */
export const APPLY_PATTERNS = {
  form: '/work/process/:family/form/:processDefinitionId',
  handle: '/work/process/:family/handle/:taskId/:processInstanceId/:businessId',
  detail: '/work/process/:family/detail/:processInstanceId/:businessId',
} as const;
