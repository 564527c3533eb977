/**
 * /work/process/:family/handle/:taskId/:processInstanceId/:businessId — 审批申请 of a family without pages
 * of its own: the application, its timeline, a required comment, 同意 or 驳回; then back to 待办事务.
 */
import '../i18n';
import { useTranslation } from 'react-i18next';
import { HandleTask } from '../process/HandleTask';
import { usePatternParams } from '../process/params';
import { APPLY_PATTERNS } from '../routes';
import { ApplyRecord } from './ApplyRecord';

export default function ApplyHandlePage() {
  const { t } = useTranslation();
  const { taskId, processInstanceId } = usePatternParams<'taskId' | 'processInstanceId'>(
    APPLY_PATTERNS.handle,
  );
  return (
    <HandleTask
      title={t('work.apply.handleTitle')}
      formName="applyHandle"
      taskId={taskId}
      processInstanceId={processInstanceId}
    >
      <ApplyRecord processInstanceId={processInstanceId} />
    </HandleTask>
  );
}
