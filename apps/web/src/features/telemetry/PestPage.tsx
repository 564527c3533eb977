/**
 * 虫情监测: the trap lamps the caller may read and their catch — today's counts by species, and the last 30
 * days by species and day (pest/detail/list, from the lamps' daily roll-ups); one lamp or all of them.
 */
import './i18n';
import type { Page } from '@smart/contracts/core';
import { pestPhotoResource } from '@smart/contracts/telemetry';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Image, Row, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard, chartSummary, type NamedCount } from '../../platform/charts/ChartCard';
import { EChart } from '../../platform/charts/EChart';
import { getData } from '../../platform/http/client';
import { useLanguage } from '../../platform/i18n';
import { can, useSession } from '../../platform/session/session';
import { dayStart } from '../../platform/time';
import { REFRESH_MS } from './DeviceChart';
import { DeviceList, useLiveDevices } from './MonitorPage';

const API = '/api/dfem-hope-manage';

interface PestCounts {
  lamps: number;
  total: (NamedCount & { key: string })[];
  byDay: { day: string; counts: Record<string, number> }[];
}

interface PhotoRow {
  id: string;
  deviceName?: string;
  takenAt: string;
  photo: string;
}

/** the latest photos of the lamps (or of the chosen one): what the counts were made from */
function Photos({ deviceId }: { deviceId?: string }) {
  const { t } = useTranslation();
  const photos = useQuery({
    queryKey: ['crud', pestPhotoResource.key, 'latest', deviceId],
    queryFn: () => getData<Page<PhotoRow>>(`${API}/pest/photo/page`, { current: 1, size: 8, deviceId }),
    refetchInterval: REFRESH_MS * 6,
  });
  const rows = photos.data?.records ?? [];
  return (
    <Card variant="borderless" title={t('telemetry.photos')} loading={photos.isLoading}>
      {rows.length ? (
        <Image.PreviewGroup>
          <Space wrap>
            {rows.map((p) => (
              <figure key={p.id} style={{ margin: 0 }}>
                <Image src={p.photo} width={160} alt={`${p.deviceName ?? ''} ${p.takenAt}`} />
                <figcaption>
                  <Typography.Text type="secondary">
                    {p.deviceName} {p.takenAt}
                  </Typography.Text>
                </figcaption>
              </figure>
            ))}
          </Space>
        </Image.PreviewGroup>
      ) : (
        <Empty description={t('telemetry.noPhotos')} />
      )}
    </Card>
  );
}

export default function PestPage() {
  const { t } = useTranslation();
  const language = useLanguage((s) => s.language);
  const [picked, setPicked] = useState<string>();
  // the deployment's day, not the browser's
  const today = useMemo(() => dayStart(), []);
  const counts30 = useQuery({
    queryKey: ['telemetry', 'pest', picked, language],
    queryFn: () => getData<PestCounts>(`${API}/pest/detail/list`, { deviceId: picked }),
    refetchInterval: REFRESH_MS * 6,
  });
  const todayCounts = useQuery({
    queryKey: ['telemetry', 'pest-today', picked, language],
    queryFn: () =>
      getData<PestCounts>(`${API}/pest/detail/list`, {
        deviceId: picked,
        from: today,
        to: today + 86_400_000,
      }),
    refetchInterval: REFRESH_MS * 6,
  });
  const data = counts30.data;
  const option = useMemo(() => {
    const series = data?.total ?? [];
    return {
      tooltip: { trigger: 'axis' },
      legend: {},
      grid: { left: 48, right: 20, top: 40, bottom: 40 },
      xAxis: { type: 'category', data: (data?.byDay ?? []).map((d) => d.day.slice(5)) },
      yAxis: { type: 'value', minInterval: 1, name: t('telemetry.pestCount') },
      series: series.map((s) => ({
        name: s.name,
        type: 'bar',
        stack: 'catch',
        data: (data?.byDay ?? []).map((d) => d.counts[s.key] ?? 0),
      })),
    };
  }, [data, t]);
  return (
    <PestLayout
      picked={picked}
      onPick={setPicked}
      todayItems={todayCounts.data?.total ?? []}
      option={option}
      total={data?.total ?? []}
    />
  );
}

function PestLayout({
  picked,
  onPick,
  todayItems,
  option,
  total,
}: {
  picked?: string;
  onPick: (id?: string) => void;
  todayItems: NamedCount[];
  option: Record<string, unknown>;
  total: NamedCount[];
}) {
  const { t } = useTranslation();
  useSession((s) => s.permission);
  const lamps = useLiveDevices('pest/page');
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={7}>
        <DeviceList
          devices={lamps.data?.records ?? []}
          loading={lamps.isLoading}
          selected={picked}
          onSelect={(id) => onPick(id === picked ? undefined : id)}
        />
      </Col>
      <Col xs={24} lg={17}>
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={10}>
            <ChartCard kind="pie" title={t('telemetry.pestToday')} items={todayItems} />
          </Col>
          <Col xs={24} xl={14}>
            <Card variant="borderless" title={t('telemetry.pestDays')}>
              <EChart option={option} label={`${t('telemetry.pestDays')}: ${chartSummary(total)}`} />
            </Card>
          </Col>
          {can(`${pestPhotoResource.permission}`) && (
            <Col xs={24}>
              <Photos deviceId={picked} />
            </Col>
          )}
        </Row>
      </Col>
    </Row>
  );
}
