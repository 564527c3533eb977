/**
 * /work/process/leave/detail/:processInstanceId/:businessId — 请假详情, read-only: the request, its
 * timeline and its diagram with the nodes marked (finished, active, sequence flows taken).
 */
import '../i18n';
import { Card, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { LEAVE_PATTERNS } from '../routes';
import { HistoryTimeline, InlineDiagram, LeaveRecord, usePatternParams } from './parts';

export default function LeaveDetailPage() {
  const { t } = useTranslation();
  const { processInstanceId, businessId } = usePatternParams<'processInstanceId' | 'businessId'>(
    LEAVE_PATTERNS.detail,
  );
  return (
    <Space direction="vertical" size={16} style={{ width: '100%', maxWidth: 1100 }}>
      <Card variant="borderless" title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('work.detailTitle')}</h2>}>
        <LeaveRecord businessId={businessId} />
      </Card>
      <Card variant="borderless" title={<h3 style={{ fontSize: 15, margin: 0 }}>{t('work.diagramOf')}</h3>}>
        <InlineDiagram processInstanceId={processInstanceId} />
      </Card>
      <Card
        variant="borderless"
        title={<h3 style={{ fontSize: 15, margin: 0 }}>{t('work.history.title')}</h3>}
      >
        <HistoryTimeline processInstanceId={processInstanceId} />
      </Card>
    </Space>
  );
}
