/**
 * 党建概览: the tenant's party figures, computed by the server from the rows the caller may read
 * (GET partyOverview/statistics): members by branch, by age band, by education (of the linked villager,
 * dictionary-labelled in the request's language), and the share of households a member looks after.
 */
import './i18n';
import type { PartyCount, PartyOverview } from '@smart/contracts/party';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type ChartOption, EChart } from '../../platform/charts/EChart';
import { FigureCard } from '../../platform/charts/FigureCard';
import { getData } from '../../platform/http/client';
import { useLanguage } from '../../platform/i18n';
import type { partyZh } from './strings';

const summary = (items: PartyCount[]) => items.map((i) => `${i.name} ${i.value}`).join(', ');

const pie = (items: { name: string; value: number }[]): ChartOption => ({
  tooltip: { trigger: 'item' },
  legend: { bottom: 0, type: 'scroll' },
  series: [
    {
      type: 'pie',
      radius: ['35%', '65%'],
      center: ['50%', '45%'],
      data: items.filter((i) => i.value > 0).map((i) => ({ name: i.name, value: i.value })),
    },
  ],
});

export default function PartyOverviewPage() {
  const { t } = useTranslation();
  const language = useLanguage((s) => s.language);
  const { data, isFetching, refetch } = useQuery({
    queryKey: ['crud', 'villagerToParty', 'overview', language],
    queryFn: () => getData<PartyOverview>('/api/dfem-hope-manage/partyOverview/statistics'),
    refetchOnMount: 'always',
  });

  const coverage = data?.households ? Math.round((data.pairedHouseholds / data.households) * 1000) / 10 : 0;
  const pairing = useMemo(
    () =>
      data
        ? [
            { name: t('party.paired'), value: data.pairedHouseholds },
            { name: t('party.unpaired'), value: data.households - data.pairedHouseholds },
          ]
        : [],
    [data, t],
  );
  const charts = useMemo(() => {
    if (!data) return null;
    const branches: ChartOption = {
      tooltip: { trigger: 'axis' },
      legend: { top: 0, data: [t('party.memberCount')] },
      grid: { left: 40, right: 20, top: 40, bottom: 50 },
      xAxis: {
        type: 'category',
        data: data.byBranch.map((b) => b.name),
        axisLabel: { interval: 0, rotate: 20 },
      },
      yAxis: { type: 'value' },
      series: [
        {
          name: t('party.memberCount'),
          type: 'bar',
          data: data.byBranch.map((b) => b.value),
          itemStyle: { color: '#c0392b' },
        },
      ],
    };
    return { branches, age: pie(data.byAge), education: pie(data.byEducation), pairing: pie(pairing) };
  }, [data, pairing, t]);

  const stats: [keyof typeof partyZh, number | string | undefined][] = data
    ? [
        ['members', data.members],
        ['probationary', data.probationary],
        ['organisations', data.organisations],
        ['activities', data.activities],
        ['households', data.households],
        ['pairedHouseholds', data.pairedHouseholds],
        ['coverage', `${coverage}%`],
      ]
    : [];

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <FigureCard
        title={t('party.overviewTitle')}
        figures={stats.map(([key, value]) => [t(`party.${key}`), value] as const)}
        loading={!data}
        refreshing={isFetching}
        onRefresh={() => refetch()}
      />
      {data && charts && (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            <Card variant="borderless" title={t('party.byBranch')}>
              <EChart option={charts.branches} label={`${t('party.byBranch')}: ${summary(data.byBranch)}`} />
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <Card variant="borderless" title={t('party.byAge')}>
              <EChart option={charts.age} label={`${t('party.byAge')}: ${summary(data.byAge)}`} />
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <Card variant="borderless" title={t('party.byEducation')}>
              <EChart
                option={charts.education}
                label={`${t('party.byEducation')}: ${summary(data.byEducation)}`}
              />
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <Card variant="borderless" title={t('party.pairing')}>
              <EChart
                option={charts.pairing}
                label={`${t('party.pairing')}: ${pairing.map((p) => `${p.name} ${p.value}`).join(', ')}`}
              />
            </Card>
          </Col>
        </Row>
      )}
    </div>
  );
}
