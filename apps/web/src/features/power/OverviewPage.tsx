/**
 * 能源总览: every station's power now and today's energy, this month's energy by day (all stations), the
 * stations ranked by this month's full-load hours, and the open alarms of their devices (GET
 * powerStation/overview: yield from the inverters' lifetime counters, computed by the server).
 */
import './i18n';
import type { EnergyOverview } from '@smart/contracts/power';
import { Card, Col, Row } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard } from '../../platform/charts/ChartCard';
import { EChart } from '../../platform/charts/EChart';
import { FigureCard } from '../../platform/charts/FigureCard';
import { useOverview } from '../../platform/charts/useOverview';

const kwh = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${x.toFixed(1)} kWh`);

export default function PowerOverviewPage() {
  const { t } = useTranslation();
  const overview = useOverview<EnergyOverview>('/api/dfem-hope-power/powerStation/overview', 'powerStation');
  const { data } = overview;
  const month = useMemo(() => {
    const days = data?.month ?? [];
    return {
      tooltip: { trigger: 'axis' },
      grid: { left: 56, right: 24, top: 32, bottom: 40 },
      xAxis: { type: 'category', data: days.map(([d]) => d.slice(5)) },
      yAxis: { type: 'value', name: 'kWh' },
      series: [
        {
          name: t('power.energy'),
          type: 'bar',
          itemStyle: { color: '#faad14' },
          // a day without readings is a gap in the bars, not a zero
          data: days.map(([, e]) => e),
        },
      ],
    };
  }, [data, t]);
  const monthLabel = `${t('power.monthYield')}: ${(data?.month ?? [])
    .map(([d, e]) => `${d} ${e === null ? t('common.empty') : `${e} kWh`}`)
    .join(', ')}`;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <FigureCard
        title={t('power.overviewTitle')}
        figures={
          data
            ? [
                [t('power.stations'), data.stations.length],
                [t('power.power'), `${data.power} kW`],
                [t('power.energyToday'), kwh(data.energyToday)],
                [t('power.openAlarms'), data.openAlarms],
              ]
            : []
        }
        query={overview}
      />
      {data && (
        <Row gutter={[16, 16]}>
          <Col xs={24}>
            <Card variant="borderless" title={t('power.monthYield')} data-testid="power-month-chart">
              <EChart option={month} label={monthLabel} />
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <ChartCard
              kind="bar"
              title={t('power.ranking')}
              series={t('power.hours')}
              items={data.ranking.map((r) => ({ key: r.id, name: r.name, value: r.hours ?? 0 }))}
              color="#52c41a"
            />
          </Col>
          <Col xs={24} lg={12}>
            <ChartCard
              kind="bar"
              title={t('power.stationsToday')}
              series={t('power.energy')}
              items={data.stations.map((s) => ({ key: s.id, name: s.name, value: s.energyToday ?? 0 }))}
              color="#1677ff"
            />
          </Col>
        </Row>
      )}
    </div>
  );
}
