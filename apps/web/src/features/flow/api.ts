/**
 * Wire formats and calls of the workflow service (/api/dfem-flow, api-contract.md §Workflow) and the
 * pickers its screens share: users of the tenant, roles (by alias) and tenants.
 */
import type { Page } from '@smart/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { getData } from '../../platform/http/client';

export const FLOW_API = '/api/dfem-flow';
export const LEAVE_API = '/api/dfem-desk/process/leave';

/** Every list of the flow and work screens is cached under this key: one invalidation refreshes them all. */
export const FLOW_QUERY = 'flow';

export interface ModelRow {
  id: string;
  modelKey: string;
  name: string;
  category: string | null;
  description: string | null;
  version: number;
  createTime: string;
  updateTime: string;
}

export interface ModelDetail extends ModelRow {
  xml: string | null;
}

export interface DefinitionRow {
  id: string;
  processDefinitionId: string;
  key: string;
  name: string;
  version: number;
  category: string;
  categoryName: string;
  state: 'active' | 'suspend';
  deploymentId: string;
  deploymentTime: string;
  /** '' = every tenant (通用), else the comma list of tenant ids (定制) */
  tenantIds: string;
  resourceName: string;
}

export interface InstanceRow {
  processInstanceId: string;
  processDefinitionId: string;
  processDefinitionKey: string;
  processDefinitionName: string;
  businessId: string;
  startUser: string;
  startUserName: string;
  category: string;
  categoryName: string;
  createTime: string;
}

/** One activity or sequence flow an instance went through (spec §3 flow history item). */
export interface FlowHistoryItem {
  historyActivityId: string;
  historyActivityType: string;
  /** '' while the activity is still waiting */
  endTime: string;
}

export interface ModelView {
  xml: string;
  flow: FlowHistoryItem[];
}

/** A line of the timeline (process/history-flow-list). */
export interface HistoryEntry extends FlowHistoryItem {
  historyActivityName: string;
  assignee: string;
  assigneeName: string;
  createTime: string;
  durationTime: string;
  comment: string;
}

export type DiagramTarget = { processInstanceId: string } | { processDefinitionId: string };

export function fetchModelView(target: DiagramTarget): Promise<ModelView> {
  return getData<ModelView>(`${FLOW_API}/process/model-view`, target);
}

export function fetchHistory(processInstanceId: string): Promise<HistoryEntry[]> {
  return getData<HistoryEntry[]>(`${FLOW_API}/process/history-flow-list`, { processInstanceId });
}

export interface UserOption {
  id: string;
  account: string;
  realName: string;
  name?: string;
}

/** The users of the signed-in tenant (the first 200), for approver and candidate pickers. */
export function useTenantUsers(enabled = true) {
  return useQuery({
    queryKey: ['flow-users'],
    queryFn: async () =>
      (await getData<Page<UserOption>>('/api/dfem-user/page', { current: 1, size: 200 }))?.records ?? [],
    enabled,
    staleTime: 60_000,
  });
}

export function userLabel(u: UserOption): string {
  const name = u.realName || u.name || u.account;
  return name === u.account ? name : `${name} (${u.account})`;
}

interface RoleNode {
  id: string;
  roleName: string;
  roleAlias: string;
  children?: RoleNode[];
}

export interface RoleOption {
  id: string;
  roleName: string;
  roleAlias: string;
}

/** Roles of the tenant, flattened; candidate groups name them by alias. */
export function useRoles(enabled = true) {
  return useQuery({
    queryKey: ['flow-roles'],
    queryFn: async () => {
      const out: RoleOption[] = [];
      const walk = (nodes: RoleNode[] | undefined) => {
        for (const n of nodes ?? []) {
          out.push({ id: n.id, roleName: n.roleName, roleAlias: n.roleAlias });
          walk(n.children);
        }
      };
      walk(await getData<RoleNode[]>('/api/dfem-system/role/list'));
      return out;
    },
    enabled,
    staleTime: 60_000,
  });
}

export interface TenantOption {
  tenantId: string;
  tenantName: string;
}

export function useTenants(enabled = true) {
  return useQuery({
    queryKey: ['flow-tenants'],
    queryFn: async () =>
      (await getData<Page<TenantOption>>('/api/dfem-system/tenant/list', { current: 1, size: 200 }))
        ?.records ?? [],
    enabled,
    staleTime: 60_000,
  });
}

export interface ProcessKeyOption {
  key: string;
  name: string;
  /** a definition of this key is deployed (what a call activity starts at run time) */
  deployed: boolean;
}

/**
 * The process keys a call activity may call: the tenant's deployed definitions (when the user may list
 * them) and its models (whose key becomes the process key on deployment), one entry per key.
 */
export function useProcessKeys(enabled = true) {
  return useQuery({
    queryKey: ['flow-process-keys'],
    queryFn: async () => {
      const page = { current: 1, size: 200 };
      const [definitions, models] = await Promise.all([
        getData<Page<DefinitionRow>>(`${FLOW_API}/manager/list`, page, { silent: true }).catch(() => null),
        getData<Page<ModelRow>>(`${FLOW_API}/model/list`, page, { silent: true }).catch(() => null),
      ]);
      const out = new Map<string, ProcessKeyOption>();
      for (const d of definitions?.records ?? [])
        if (!out.has(d.key)) out.set(d.key, { key: d.key, name: d.name, deployed: true });
      for (const m of models?.records ?? [])
        if (!out.has(m.modelKey)) out.set(m.modelKey, { key: m.modelKey, name: m.name, deployed: false });
      return [...out.values()];
    },
    enabled,
    staleTime: 60_000,
  });
}
