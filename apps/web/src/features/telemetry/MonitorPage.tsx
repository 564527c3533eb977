/**
 * The monitoring pages over the telemetry core (气象监测, 土壤墒情, 边坡监测): the devices of one kind the
 * caller may read, each with its live state and open alarms; the chosen device's latest value of every
 * metric (with today's range where the server gives it) and its chart. Read again every 10 seconds.
 */
import './i18n';
import type { Page } from '@smart/contracts/core';
import { DEVICE_KIND, metricsOfKind } from '@smart/contracts/telemetry';
import { unitIn } from '@smart/contracts/units';
import { useQuery } from '@tanstack/react-query';
import { Badge, Card, Col, Empty, List, Row, Statistic, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData } from '../../platform/http/client';
import { currentLanguage } from '../../platform/i18n';
import { DeviceChart, REFRESH_MS } from './DeviceChart';
import { LiveState } from './LiveState';

const API = '/api/dfem-hope-manage';

export interface LiveDevice {
  id: string;
  name: string;
  serial: string;
  online: number;
  lastSeenAt: string | null;
  lastValues: Record<string, number> | null;
  openAlarms: number;
}

interface MetricInfo {
  code: string;
  name: string;
  unit: string;
  digits: number;
  value: number | null;
  todayMin: number | null;
  todayMax: number | null;
}

/** the devices of a kind (its monitoring list call), polled */
export function useLiveDevices(listPath: string) {
  return useQuery({
    queryKey: ['telemetry', 'devices', listPath],
    queryFn: () => getData<Page<LiveDevice>>(`${API}/${listPath}`, { current: 1, size: 100 }),
    refetchInterval: REFRESH_MS,
  });
}

export function DeviceList({
  devices,
  loading,
  selected,
  onSelect,
}: {
  devices: LiveDevice[];
  loading: boolean;
  selected?: string;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Card variant="borderless" title={t('telemetry.devices')}>
      <List
        loading={loading}
        dataSource={devices}
        locale={{ emptyText: t('telemetry.noDevices') }}
        renderItem={(d) => (
          <List.Item
            onClick={() => onSelect(d.id)}
            style={{
              cursor: 'pointer',
              background: d.id === selected ? 'var(--ant-color-primary-bg)' : undefined,
              paddingInline: 8,
            }}
          >
            <button
              type="button"
              aria-pressed={d.id === selected}
              onClick={() => onSelect(d.id)}
              style={{ all: 'unset', flex: 1, cursor: 'pointer' }}
            >
              <Typography.Text strong>{d.name}</Typography.Text>{' '}
              <Typography.Text type="secondary">{d.serial}</Typography.Text>
            </button>
            <LiveState online={d.online} lastSeenAt={d.lastSeenAt} />
            {d.openAlarms > 0 && (
              <Badge count={d.openAlarms} title={t('telemetry.openAlarms', { n: d.openAlarms })} />
            )}
          </List.Item>
        )}
      />
    </Card>
  );
}

function Tiles({ kind, device, infoPath }: { kind: string; device: LiveDevice; infoPath?: string }) {
  const { t } = useTranslation();
  const en = currentLanguage() === 'en';
  const info = useQuery({
    queryKey: ['telemetry', 'info', infoPath, device.id],
    queryFn: () => getData<{ metrics: MetricInfo[] }>(`${API}/${infoPath}`, { deviceId: device.id }),
    enabled: Boolean(infoPath),
    refetchInterval: REFRESH_MS,
  });
  const tiles: MetricInfo[] =
    info.data?.metrics ??
    metricsOfKind(kind).map((m) => ({
      code: m.code,
      name: en ? m.label.en : m.label.zh,
      unit: m.unit,
      digits: m.digits,
      value: device.lastValues?.[m.code] ?? null,
      todayMin: null,
      todayMax: null,
    }));
  return (
    <Row gutter={[12, 12]}>
      {tiles.map((m) => (
        <Col key={m.code} xs={12} md={8} xl={6}>
          <Card size="small" variant="borderless" style={{ background: 'var(--ant-color-fill-quaternary)' }}>
            <Statistic
              title={m.name}
              value={m.value === null ? '—' : m.value.toFixed(m.digits)}
              suffix={m.value === null ? undefined : unitIn(en ? 'en' : 'zh', m.unit)}
            />
            {m.todayMin !== null && m.todayMax !== null && (
              <Typography.Text type="secondary">
                {t('telemetry.today', {
                  min: m.todayMin.toFixed(m.digits),
                  max: m.todayMax.toFixed(m.digits),
                })}
              </Typography.Text>
            )}
          </Card>
        </Col>
      ))}
    </Row>
  );
}

export function MonitorPage({
  kind,
  listPath,
  infoPath,
  title,
}: {
  kind: string;
  listPath: string;
  infoPath?: string;
  title: string;
}) {
  const { t } = useTranslation();
  const devices = useLiveDevices(listPath);
  const rows = devices.data?.records ?? [];
  const [picked, setPicked] = useState<string>();
  const device = rows.find((d) => d.id === picked) ?? rows[0];
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={7}>
        <DeviceList devices={rows} loading={devices.isLoading} selected={device?.id} onSelect={setPicked} />
      </Col>
      <Col xs={24} lg={17}>
        {device ? (
          <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
            <Card
              variant="borderless"
              title={`${title} · ${device.name}`}
              extra={<LiveState online={device.online} lastSeenAt={device.lastSeenAt} />}
            >
              <Tiles kind={kind} device={device} infoPath={infoPath} />
            </Card>
            <Card variant="borderless">
              <DeviceChart
                key={device.id}
                deviceId={device.id}
                kind={kind}
                name={device.name}
                serial={device.serial}
              />
            </Card>
          </div>
        ) : (
          <Card variant="borderless">
            <Empty description={devices.isLoading ? '' : t('telemetry.noDevices')} />
          </Card>
        )}
      </Col>
    </Row>
  );
}

export function WeatherPage() {
  const { t } = useTranslation();
  return (
    <MonitorPage
      kind={DEVICE_KIND.weather}
      listPath="agricultureWeather/page"
      infoPath="agricultureWeather/device/info"
      title={t('telemetry.weatherTitle')}
    />
  );
}
export function SoilPage() {
  const { t } = useTranslation();
  return (
    <MonitorPage
      kind={DEVICE_KIND.soil}
      listPath="soil/page"
      infoPath="soil/device/info"
      title={t('telemetry.soilTitle')}
    />
  );
}
export function SlopePage() {
  const { t } = useTranslation();
  return (
    <MonitorPage kind={DEVICE_KIND.slope} listPath="slopeDetection/page" title={t('telemetry.slopeTitle')} />
  );
}
