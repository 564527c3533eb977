/**
 * 村务概览: the tenant's figures, computed by the server from its rows (population, households, the age and
 * sex pyramid, political status, groups, education, poverty and low-income counts, cadres, this month's
 * visits), drawn as charts; and the indicators kept by hand (villageAffairsOverview) below.
 */
import './i18n';
import { villageAffairsOverviewResource } from '@smart/contracts/village';
import { Card, Col, Row } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { symmetricAxis } from '../../platform/charts/axes';
import { pieOption } from '../../platform/charts/ChartCard';
import { type ChartOption, EChart } from '../../platform/charts/EChart';
import { FigureCard } from '../../platform/charts/FigureCard';
import { useOverview } from '../../platform/charts/useOverview';
import { CrudPage } from '../../platform/crud/CrudPage';
import type { villageZh } from './strings';

interface Named {
  key: string;
  name: string;
  value: number;
}
export interface Statistics {
  population: number;
  households: number;
  male: number;
  female: number;
  povertyAlleviated: number;
  lowIncome: number;
  disabled: number;
  veteran: number;
  livingAlone: number;
  elderly: number;
  lowIncomeHouseholds: number;
  povertyHouseholds: number;
  cadres: number;
  partyMembers: number;
  visitsThisMonth: number;
  receptionsThisMonth: number;
  month: string;
  pyramid: { age: string; male: number; female: number }[];
  politicalStatus: Named[];
  villageGroups: Named[];
  education: Named[];
}

const summary = (items: Named[]) => items.map((i) => `${i.name} ${i.value}`).join(', ');

export default function OverviewPage() {
  const { t } = useTranslation();
  const overview = useOverview<Statistics>(
    '/api/dfem-hope-manage/villageAffairsOverview/statistics',
    'villager',
  );
  const { data } = overview;

  const charts = useMemo(() => {
    if (!data) return null;
    // men to the left, women to the right, on one scale: the same bound on both sides
    const { bound, step } = symmetricAxis(data.pyramid.flatMap((p) => [p.male, p.female]));
    const pyramid: ChartOption = {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { data: [t('village.male'), t('village.female')] },
      grid: { left: 60, right: 30, bottom: 30 },
      xAxis: {
        type: 'value',
        min: -bound,
        max: bound,
        interval: step,
        axisLabel: { formatter: (v: number) => String(Math.abs(v)) },
      },
      yAxis: { type: 'category', data: data.pyramid.map((p) => p.age), name: t('village.age') },
      series: [
        {
          name: t('village.male'),
          type: 'bar',
          stack: 'all',
          data: data.pyramid.map((p) => -p.male),
          itemStyle: { color: '#409EFF' },
          tooltip: { valueFormatter: (v: number) => String(Math.abs(v)) },
        },
        {
          name: t('village.female'),
          type: 'bar',
          stack: 'all',
          data: data.pyramid.map((p) => p.female),
          itemStyle: { color: '#f56c9b' },
        },
      ],
    };
    const groups: ChartOption = {
      tooltip: { trigger: 'axis' },
      grid: { left: 40, right: 20, top: 30, bottom: 50 },
      xAxis: {
        type: 'category',
        data: data.villageGroups.map((g) => g.name),
        axisLabel: { interval: 0, rotate: 20 },
      },
      yAxis: { type: 'value' },
      series: [
        { type: 'bar', data: data.villageGroups.map((g) => g.value), itemStyle: { color: '#67c23a' } },
      ],
    };
    return {
      pyramid,
      political: pieOption(data.politicalStatus),
      groups,
      education: pieOption(data.education),
    };
  }, [data, t]);

  const stats: [keyof typeof villageZh, number | undefined][] = data
    ? [
        ['population', data.population],
        ['households', data.households],
        ['partyMembers', data.partyMembers],
        ['cadres', data.cadres],
        ['lowIncomeCount', data.lowIncome],
        ['povertyCount', data.povertyAlleviated],
        ['elderly', data.elderly],
        ['livingAlone', data.livingAlone],
        ['disabled', data.disabled],
        ['veteran', data.veteran],
        ['visitsThisMonth', data.visitsThisMonth],
        ['receptionsThisMonth', data.receptionsThisMonth],
      ]
    : [];

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <FigureCard
        title={t('village.overviewTitle')}
        figures={stats.map(([key, value]) => [t(`village.${key}`), value] as const)}
        query={overview}
      />
      {data && charts && (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            <Card variant="borderless" title={t('village.pyramid')}>
              <EChart
                option={charts.pyramid}
                height={340}
                label={`${t('village.pyramid')}: ${data.pyramid
                  .map((p) => `${p.age} ${t('village.male')} ${p.male} ${t('village.female')} ${p.female}`)
                  .join(', ')}`}
              />
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <Card variant="borderless" title={t('village.political')}>
              <EChart
                option={charts.political}
                height={340}
                label={`${t('village.political')}: ${summary(data.politicalStatus)}`}
              />
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <Card variant="borderless" title={t('village.groups')}>
              <EChart
                option={charts.groups}
                label={`${t('village.groups')}: ${summary(data.villageGroups)}`}
              />
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <Card variant="borderless" title={t('village.education')}>
              <EChart
                option={charts.education}
                label={`${t('village.education')}: ${summary(data.education)}`}
              />
            </Card>
          </Col>
        </Row>
      )}
      <CrudPage def={villageAffairsOverviewResource} dateRange={false} />
    </div>
  );
}
