/**
 * A device's metric over time: the server answers at most ~1 000 points (raw readings for a short range,
 * bucket averages with their minimum and maximum beyond), drawn as the average with its min/max and the
 * alarm thresholds; read again every 10 seconds, so the chart follows the readings as they arrive. The
 * figure's accessible name says what is drawn and the latest value.
 */
import './i18n';
import {
  DEVICE_KINDS,
  type DeviceKindKey,
  type History,
  metricsOfKind,
  thresholdOf,
} from '@smart/contracts/telemetry';
import { unitIn } from '@smart/contracts/units';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Segmented, Select, Space, Spin } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../platform/charts/EChart';
import { downloadFile } from '../../platform/crud/transfer';
import { getData } from '../../platform/http/client';
import { currentLanguage } from '../../platform/i18n';
import { formatMoment } from '../../platform/time';

const BASE = '/api/dfem-hope-manage/smartPlant/deviceManage';
const RANGES = {
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
  '1y': 365 * 86_400_000,
} as const;
type RangeKey = keyof typeof RANGES;
export const REFRESH_MS = 10_000;

/** a point's time in the deployment's zone: the day over long ranges, with the time over short ones */
const timeLabel = (ms: number, long: boolean) => formatMoment(ms, long ? 'monthDay' : 'minute');

export function DeviceChart({
  deviceId,
  kind,
  name,
  serial,
  thresholds,
}: {
  deviceId: string;
  kind: string;
  name: string;
  serial?: string;
  /** the device's own thresholds (its `thresholds` field, JSON), over the metric's */
  thresholds?: string | null;
}) {
  const { t } = useTranslation();
  const metrics = metricsOfKind(kind);
  const [metric, setMetric] = useState(metrics[0]?.code ?? '');
  const [range, setRange] = useState<RangeKey>('24h');
  const en = currentLanguage() === 'en';
  const history = useQuery({
    queryKey: ['telemetry', 'history', deviceId, metric, range],
    queryFn: () => {
      const to = Date.now();
      return getData<History>(`${BASE}/history`, { deviceId, metric, from: to - RANGES[range], to });
    },
    enabled: Boolean(metric),
    refetchInterval: REFRESH_MS,
  });
  const def = metrics.find((m) => m.code === metric);
  const own = useMemo(() => {
    try {
      return thresholds ? JSON.parse(thresholds) : null;
    } catch {
      return null;
    }
  }, [thresholds]);
  const option = useMemo(() => {
    const pts = history.data?.points ?? [];
    const long = range === '30d' || range === '1y';
    const bounds = def ? thresholdOf(def, own) : {};
    const marks = [
      ...(bounds.high !== undefined ? [{ yAxis: bounds.high, name: t('telemetry.high') }] : []),
      ...(bounds.low !== undefined ? [{ yAxis: bounds.low, name: t('telemetry.low') }] : []),
    ];
    const bucketed = (history.data?.step ?? 0) > 0;
    return {
      tooltip: { trigger: 'axis' },
      legend: {
        data: bucketed
          ? [t('telemetry.average'), t('telemetry.minimum'), t('telemetry.maximum')]
          : [t('telemetry.average')],
      },
      grid: { left: 56, right: 24, top: 40, bottom: 40 },
      xAxis: { type: 'category', data: pts.map((p) => timeLabel(p[0], long)), boundaryGap: false },
      yAxis: { type: 'value', name: unitIn(en ? 'en' : 'zh', def?.unit), scale: true },
      series: [
        {
          name: t('telemetry.average'),
          type: 'line',
          showSymbol: false,
          sampling: 'lttb',
          data: pts.map((p) => p[1]),
          markLine: marks.length
            ? { silent: true, symbol: 'none', lineStyle: { color: '#ff4d4f', type: 'dashed' }, data: marks }
            : undefined,
        },
        ...(bucketed
          ? [
              {
                name: t('telemetry.minimum'),
                type: 'line',
                showSymbol: false,
                lineStyle: { width: 1, type: 'dotted' },
                data: pts.map((p) => p[2]),
              },
              {
                name: t('telemetry.maximum'),
                type: 'line',
                showSymbol: false,
                lineStyle: { width: 1, type: 'dotted' },
                data: pts.map((p) => p[3]),
              },
            ]
          : []),
      ],
    };
  }, [history.data, range, def, own, t, en]);
  if (!metrics.length) return <Empty description={t('telemetry.noReadings')} />;
  const pts = history.data?.points ?? [];
  const last = pts[pts.length - 1];
  const metricName = def ? (en ? def.label.en : def.label.zh) : metric;
  const label = `${t('telemetry.chartOf', { name })}: ${metricName}${
    last
      ? `, ${last[1].toFixed(def?.digits ?? 1)} ${unitIn(en ? 'en' : 'zh', def?.unit)} (${timeLabel(last[0], false)})`
      : ''
  }, ${t('telemetry.refreshEvery', { s: REFRESH_MS / 1000 })}`;
  return (
    <div>
      <Space wrap style={{ marginBottom: 8 }}>
        <Select
          aria-label={t('telemetry.metric')}
          style={{ minWidth: 160 }}
          value={metric}
          onChange={setMetric}
          options={metrics.map((m) => ({
            value: m.code,
            label: `${en ? m.label.en : m.label.zh} (${unitIn(en ? 'en' : 'zh', m.unit)})`,
          }))}
        />
        <Segmented<RangeKey>
          aria-label={t('telemetry.range')}
          value={range}
          onChange={setRange}
          options={(Object.keys(RANGES) as RangeKey[]).map((k) => ({
            value: k,
            label: t(`telemetry.range${k}`),
          }))}
        />
        <Button
          onClick={() => {
            const to = Date.now();
            void downloadFile(
              `${BASE}/readings/export`,
              { deviceId, from: to - RANGES[range], to },
              `${serial ?? deviceId}-${en ? 'readings' : '读数'}.xlsx`,
            );
          }}
        >
          {t('telemetry.exportReadings')}
        </Button>
      </Space>
      <Spin spinning={history.isLoading}>
        {pts.length || history.isLoading ? (
          <EChart option={option} label={label} height={320} />
        ) : (
          <Empty description={t('telemetry.noReadings')} />
        )}
      </Spin>
      {/* the newest point, for tests that watch the chart follow the readings (not announced: it changes often) */}
      <span hidden data-testid="chart-last">
        {last ? `${last[0]}:${last[1]}` : ''}
      </span>
    </div>
  );
}

/** the kind's name in the screen's language */
export const kindName = (kind: string) => {
  const k = DEVICE_KINDS[kind as DeviceKindKey];
  return k ? (currentLanguage() === 'en' ? k.label.en : k.label.zh) : kind;
};
