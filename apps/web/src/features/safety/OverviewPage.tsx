/**
 * 平安概览: the tenant's safety figures, computed by the server from the rows the caller may read
 * (GET securityOverview/statistics): cameras online and offline, principals, incidents (open ones),
 * incidents by kind (dictionary-labelled in the request's language) and by month over the last year.
 */
import './i18n';
import type { SafetyFigures } from '@smart/contracts/safety';
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChartCard } from '../../platform/charts/ChartCard';
import { FigureCard } from '../../platform/charts/FigureCard';
import { useOverview } from '../../platform/charts/useOverview';
import type { safetyZh } from './strings';

const ONLINE_COLORS = ['#52c41a', '#bfbfbf'];

export default function SafetyOverviewPage() {
  const { t } = useTranslation();
  const overview = useOverview<SafetyFigures>(
    '/api/dfem-hope-manage/securityOverview/statistics',
    'securityIncident',
  );
  const { data } = overview;

  const rate = data?.cameras ? Math.round((data.camerasOnline / data.cameras) * 1000) / 10 : 0;
  const stats: [keyof typeof safetyZh, number | string | undefined][] = data
    ? [
        ['cameras', data.cameras],
        ['camerasOnline', data.camerasOnline],
        ['onlineRate', `${rate}%`],
        ['principals', data.principals],
        ['incidents', data.incidents],
        ['openIncidents', data.openIncidents],
      ]
    : [];

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <FigureCard
        title={t('safety.overviewTitle')}
        figures={stats.map(([key, value]) => [t(`safety.${key}`), value] as const)}
        query={overview}
      />
      {data && (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            <ChartCard kind="pie" title={t('safety.byOnline')} items={data.byOnline} colors={ONLINE_COLORS} />
          </Col>
          <Col xs={24} lg={12}>
            <ChartCard
              kind="bar"
              title={t('safety.byKind')}
              series={t('safety.incidentCount')}
              items={data.byKind}
              color="#fa8c16"
            />
          </Col>
          <Col xs={24}>
            <ChartCard
              kind="bar"
              title={t('safety.byMonth')}
              series={t('safety.incidentCount')}
              items={data.byMonth}
              color="#1677ff"
            />
          </Col>
        </Row>
      )}
    </div>
  );
}
