/**
 * /work/process/leave/detail/:processInstanceId/:businessId — 请假详情, read-only: the request, its
 * timeline and its diagram with the nodes marked (finished, active, sequence flows taken).
 */
import '../i18n';
import { useTranslation } from 'react-i18next';
import { ProcessDetail } from '../process/ProcessDetail';
import { usePatternParams } from '../process/params';
import { LEAVE_PATTERNS } from '../routes';
import { LeaveRecord } from './parts';

export default function LeaveDetailPage() {
  const { t } = useTranslation();
  const { processInstanceId, businessId } = usePatternParams<'processInstanceId' | 'businessId'>(
    LEAVE_PATTERNS.detail,
  );
  return (
    <ProcessDetail title={t('work.detailTitle')} processInstanceId={processInstanceId}>
      <LeaveRecord businessId={businessId} />
    </ProcessDetail>
  );
}
