/**
 * A station's yield by day (this month), month (this year) or year (the last five): energy bars from
 * GET powerStationHisData/page (the inverters' lifetime counters, differenced by the server; a period
 * without readings is a gap, not a zero), with the full-load hours in the chart's name, and its Excel export.
 */
import './i18n';
import type { StationYield, YieldGrain } from '@smart/contracts/power';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Segmented, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../platform/charts/EChart';
import { downloadFile } from '../../platform/crud/transfer';
import { getData } from '../../platform/http/client';

const API = '/api/dfem-hope-power/powerStationHisData';

export function HistoryCard({ stationId, name }: { stationId: string; name: string }) {
  const { t } = useTranslation();
  const [grain, setGrain] = useState<YieldGrain>('day');
  const history = useQuery({
    queryKey: ['power', 'history', stationId, grain],
    queryFn: () => getData<{ records: StationYield[] }>(`${API}/page`, { stationId, grain, size: 100 }),
  });
  const rows = history.data?.records ?? [];
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 56, right: 24, top: 32, bottom: 40 },
      xAxis: { type: 'category', data: rows.map((r) => r.period) },
      yAxis: { type: 'value', name: 'kWh' },
      series: [
        {
          name: t('power.energy'),
          type: 'bar',
          itemStyle: { color: '#faad14' },
          data: rows.map((r) => r.energy),
        },
      ],
    }),
    [rows, t],
  );
  const label = `${t('power.history')} (${t(`power.grain_${grain}`)}): ${rows
    .map(
      (r) =>
        `${r.period} ${r.energy === null ? t('common.empty') : `${r.energy} kWh, ${r.fullLoadHours ?? '—'} h`}`,
    )
    .join('; ')}`;
  return (
    <Card
      variant="borderless"
      title={t('power.history')}
      extra={
        <Space wrap>
          <Segmented<YieldGrain>
            aria-label={t('power.grain')}
            value={grain}
            onChange={setGrain}
            options={(['day', 'month', 'year'] as const).map((g) => ({
              value: g,
              label: t(`power.grain_${g}`),
            }))}
          />
          <Button
            onClick={() =>
              void downloadFile(`${API}/export`, { stationId, grain }, `${name}-${t('power.energy')}.xlsx`)
            }
          >
            {t('power.export')}
          </Button>
        </Space>
      }
    >
      <EChart option={option} label={label} height={260} />
    </Card>
  );
}
