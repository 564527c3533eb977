/** The generic application (申请) of process families without pages of their own: its record and rules. */
import { getData } from '../../../platform/http/client';
import { FLOW_API } from '../../flow/api';

export const APPLY_API = `${FLOW_API}/process/apply`;

/** The form's limits (the server checks the same). */
export const APPLY_LIMITS = { title: 100, content: 2000 } as const;

export interface ApplyDetail {
  processInstanceId: string;
  processDefinitionId: string;
  processDefinitionName: string;
  category: string;
  categoryName?: string;
  title: string;
  content: string;
  taskUser: string;
  taskUserName: string;
  applyUser: string;
  applyUserName: string;
  applyTime: string;
  processIsFinished: 'finished' | 'unfinished';
}

export function fetchApply(processInstanceId: string): Promise<ApplyDetail> {
  return getData<ApplyDetail>(`${APPLY_API}/detail`, { processInstanceId });
}

/** True when a task of the diagram is assigned to `${taskUser}`: the form must then name the approver. */
export function needsApprover(xml: string | undefined | null): boolean {
  return !!xml && /\$\{\s*taskUser\s*\}/.test(xml);
}
