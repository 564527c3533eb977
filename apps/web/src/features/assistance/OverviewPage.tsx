/**
 * 帮扶概览: the tenant's assistance figures, computed by the server in SQL from the rows the caller may read
 * (GET assistanceOverview/statistics): units, projects, total budget and spend, published news, videos;
 * budget against spend per unit (bars) and projects by status (pie, dictionary-labelled in the request's
 * language).
 */
import './i18n';
import type { AssistanceOverview } from '@smart/contracts/assistance';
import { Card, Col, Row } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard } from '../../platform/charts/ChartCard';
import { type ChartOption, EChart } from '../../platform/charts/EChart';
import { FigureCard } from '../../platform/charts/FigureCard';
import { useOverview } from '../../platform/charts/useOverview';
import { useLanguage } from '../../platform/i18n';
import type { assistanceZh } from './strings';

const yuan = (n: number, lang: string) =>
  n.toLocaleString(lang === 'en' ? 'en-GB' : 'zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export default function AssistanceOverviewPage() {
  const { t } = useTranslation();
  const language = useLanguage((s) => s.language);
  const overview = useOverview<AssistanceOverview>(
    '/api/dfem-hope-manage/assistanceOverview/statistics',
    'assistanceProject',
  );
  const { data } = overview;

  const charts = useMemo(() => {
    if (!data) return null;
    const funds: ChartOption = {
      tooltip: { trigger: 'axis' },
      legend: { data: [t('assistance.budgetSeries'), t('assistance.spendSeries')] },
      grid: { left: 20, right: 20, top: 40, bottom: 10, containLabel: true },
      xAxis: {
        type: 'category',
        data: data.byUnit.map((u) => u.name),
        // every unit's name under its bars, broken onto lines rather than cut
        axisLabel: { interval: 0, width: 90, overflow: 'break' },
      },
      yAxis: { type: 'value' },
      series: [
        {
          name: t('assistance.budgetSeries'),
          type: 'bar',
          data: data.byUnit.map((u) => u.budget),
          itemStyle: { color: '#1677ff' },
        },
        {
          name: t('assistance.spendSeries'),
          type: 'bar',
          data: data.byUnit.map((u) => u.spend),
          itemStyle: { color: '#fa8c16' },
        },
      ],
    };
    return { funds };
  }, [data, t]);

  const rate = data?.budget ? `${Math.round((data.spend / data.budget) * 1000) / 10}%` : '0%';
  const stats: [keyof typeof assistanceZh, number | string | undefined][] = data
    ? [
        ['units', data.units],
        ['projects', data.projects],
        ['budget', yuan(data.budget, language)],
        ['spend', yuan(data.spend, language)],
        ['spendRate', rate],
        ['publishedNews', data.publishedNews],
        ['videos', data.videos],
        ['receptions', data.receptions],
      ]
    : [];

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <FigureCard
        title={t('assistance.overviewTitle')}
        figures={stats.map(([key, value]) => [t(`assistance.${key}`), value] as const)}
        query={overview}
      />
      {data && charts && (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            <Card variant="borderless" title={t('assistance.byUnit')}>
              <EChart
                option={charts.funds}
                label={`${t('assistance.byUnit')}: ${data.byUnit
                  .map(
                    (u) =>
                      `${u.name} ${t('assistance.budgetSeries')} ${u.budget} ${t('assistance.spendSeries')} ${u.spend}`,
                  )
                  .join(', ')}`}
              />
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <ChartCard kind="pie" title={t('assistance.byStatus')} items={data.byStatus} />
          </Col>
        </Row>
      )}
    </div>
  );
}
