/** The leave process's business record and the rules of its form. */
import { getData } from '../../../platform/http/client';
import { LEAVE_API } from '../../flow/api';

export interface LeaveDetail {
  id: string;
  processDefinitionId: string;
  processInstanceId: string;
  startTime: string;
  endTime: string;
  reason: string;
  taskUser: string;
  taskUserName: string;
  applyUser: string;
  applyUserName: string;
  applyTime: string;
  processIsFinished: 'finished' | 'unfinished';
}

export function fetchLeave(businessId: string): Promise<LeaveDetail> {
  return getData<LeaveDetail>(`${LEAVE_API}/detail`, { businessId });
}

/** The wire format of the form's date-times (the server reads them in its time zone). */
export const LEAVE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** True when the end comes before the start (same instant is allowed); false while either is missing. */
export function endBeforeStart(start: string | undefined | null, end: string | undefined | null): boolean {
  if (!start || !end) return false;
  return end < start;
}

/** Days between two `YYYY-MM-DD HH:mm:ss` times, to one decimal (what the server passes the process). */
export function leaveDays(start: string, end: string): number {
  const ms = Date.parse(end.replace(' ', 'T')) - Date.parse(start.replace(' ', 'T'));
  return Number.isFinite(ms) ? Math.max(0, Math.round((ms / 86_400_000) * 10) / 10) : 0;
}
