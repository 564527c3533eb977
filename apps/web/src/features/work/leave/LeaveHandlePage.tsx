/**
 * /work/process/leave/handle/:taskId/:processInstanceId/:businessId — 请假审批: the request, its timeline,
 * a required comment, 同意 (flag ok) or 驳回 (no flag) through work/complete-task; then back to 待办事务.
 */
import '../i18n';
import { useTranslation } from 'react-i18next';
import { HandleTask } from '../process/HandleTask';
import { usePatternParams } from '../process/params';
import { LEAVE_PATTERNS } from '../routes';
import { LeaveRecord } from './parts';

export default function LeaveHandlePage() {
  const { t } = useTranslation();
  const { taskId, processInstanceId, businessId } = usePatternParams<
    'taskId' | 'processInstanceId' | 'businessId'
  >(LEAVE_PATTERNS.handle);
  return (
    <HandleTask
      title={t('work.handle.title')}
      formName="leaveHandle"
      taskId={taskId}
      processInstanceId={processInstanceId}
    >
      <LeaveRecord businessId={businessId} />
    </HandleTask>
  );
}
