/**
 * 平安概览: the tenant's safety figures, computed by the server from the rows the caller may read
 * (GET securityOverview/statistics): cameras online and offline, principals, incidents (open ones),
 * incidents by kind (dictionary-labelled in the request's language) and by month over the last year.
 */
import './i18n';
import type { SafetyCount, SafetyFigures } from '@smart/contracts/safety';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type ChartOption, EChart } from '../../platform/charts/EChart';
import { FigureCard } from '../../platform/charts/FigureCard';
import { getData } from '../../platform/http/client';
import { useLanguage } from '../../platform/i18n';
import type { safetyZh } from './strings';

const summary = (items: SafetyCount[]) => items.map((i) => `${i.name} ${i.value}`).join(', ');

const bars = (items: SafetyCount[], name: string, color: string, rotate = 0): ChartOption => ({
  tooltip: { trigger: 'axis' },
  legend: { top: 0, data: [name] },
  grid: { left: 40, right: 20, top: 40, bottom: 50 },
  xAxis: { type: 'category', data: items.map((i) => i.name), axisLabel: { interval: 0, rotate } },
  yAxis: { type: 'value', minInterval: 1 },
  series: [{ name, type: 'bar', data: items.map((i) => i.value), itemStyle: { color } }],
});

export default function SafetyOverviewPage() {
  const { t } = useTranslation();
  const language = useLanguage((s) => s.language);
  const { data, isFetching, refetch } = useQuery({
    queryKey: ['crud', 'securityIncident', 'overview', language],
    queryFn: () => getData<SafetyFigures>('/api/dfem-hope-manage/securityOverview/statistics'),
    refetchOnMount: 'always',
  });

  const charts = useMemo(() => {
    if (!data) return null;
    const online: ChartOption = {
      tooltip: { trigger: 'item' },
      legend: { bottom: 0 },
      color: ['#52c41a', '#bfbfbf'],
      series: [
        {
          type: 'pie',
          radius: ['35%', '65%'],
          center: ['50%', '45%'],
          data: data.byOnline.map((i) => ({ name: i.name, value: i.value })),
        },
      ],
    };
    return {
      online,
      kind: bars(data.byKind, t('safety.incidentCount'), '#fa8c16', 20),
      month: bars(data.byMonth, t('safety.incidentCount'), '#1677ff', 30),
    };
  }, [data, t]);

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
        loading={!data}
        refreshing={isFetching}
        onRefresh={() => refetch()}
      />
      {data && charts && (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            <Card variant="borderless" title={t('safety.byOnline')}>
              <EChart option={charts.online} label={`${t('safety.byOnline')}: ${summary(data.byOnline)}`} />
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <Card variant="borderless" title={t('safety.byKind')}>
              <EChart option={charts.kind} label={`${t('safety.byKind')}: ${summary(data.byKind)}`} />
            </Card>
          </Col>
          <Col xs={24}>
            <Card variant="borderless" title={t('safety.byMonth')}>
              <EChart option={charts.month} label={`${t('safety.byMonth')}: ${summary(data.byMonth)}`} />
            </Card>
          </Col>
        </Row>
      )}
    </div>
  );
}
