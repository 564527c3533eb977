/**
 * 防返贫概览: the tenant's relief figures, computed by the server from the rows the caller may read
 * (GET reliefOverview/statistics): households by kind, stage and risk, identifications under way and
 * overdue, monitored households without a measure, and the measures' amounts by kind.
 */
import './i18n';
import type { ReliefOverview } from '@smart/contracts/relief';
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChartCard } from '../../platform/charts/ChartCard';
import { FigureCard } from '../../platform/charts/FigureCard';
import { useOverview } from '../../platform/charts/useOverview';
import type { reliefZh } from './strings';

export default function ReliefOverviewPage() {
  const { t } = useTranslation();
  const overview = useOverview<ReliefOverview>(
    '/api/dfem-hope-manage/reliefOverview/statistics',
    'preventionPoverty',
  );
  const { data } = overview;
  const figures: (keyof typeof reliefZh)[] = [
    'households',
    'monitored',
    'identifying',
    'overdue',
    'withoutMeasure',
    'riskRemoved',
    'measureAmount',
  ];
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <FigureCard
        title={t('relief.overviewTitle')}
        figures={figures.map(
          (key) => [t(`relief.${key}`), data?.[key as keyof ReliefOverview] as number] as const,
        )}
        query={overview}
      />
      {data && (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            <ChartCard kind="pie" title={t('relief.byKind')} items={data.byKind} />
          </Col>
          <Col xs={24} lg={12}>
            <ChartCard kind="pie" title={t('relief.byStage')} items={data.byStage} />
          </Col>
          <Col xs={24} lg={12}>
            <ChartCard kind="bar" title={t('relief.byRisk')} items={data.byRisk} color="#d48806" />
          </Col>
          <Col xs={24} lg={12}>
            <ChartCard
              kind="bar"
              title={t('relief.amountByMeasure')}
              series={t('relief.amount')}
              items={data.amountByMeasure}
              color="#389e0d"
            />
          </Col>
        </Row>
      )}
    </div>
  );
}
