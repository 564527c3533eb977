/**
 * /work/process/:family/detail/:processInstanceId/:businessId — 申请详情, read-only: the application, its
 * diagram with the nodes marked and its timeline.
 */
import '../i18n';
import { useTranslation } from 'react-i18next';
import { ProcessDetail } from '../process/ProcessDetail';
import { usePatternParams } from '../process/params';
import { APPLY_PATTERNS } from '../routes';
import { ApplyRecord } from './ApplyRecord';

export default function ApplyDetailPage() {
  const { t } = useTranslation();
  const { processInstanceId } = usePatternParams<'processInstanceId'>(APPLY_PATTERNS.detail);
  return (
    <ProcessDetail title={t('work.apply.detailTitle')} processInstanceId={processInstanceId}>
      <ApplyRecord processInstanceId={processInstanceId} />
    </ProcessDetail>
  );
}
