/**
 * 地块管理: the plots' list (the generic page, saving through the family's `upsert`) and their map — every
 * plot drawn on AgriMap, a new one drawn corner by corner with its area in 亩 shown as it grows (the
 * contracts' `polygonMu`, the number the server stores), a boundary imported from a GeoJSON or KML file,
 * the selected plot's boundary edited in place. A plot's history (its farming records and plan steps in time
 * order) opens from its row.
 */
import './i18n';
import {
  type AgriMapSettings,
  type PlotHistoryItem,
  plantRecordResource,
  plotResource,
  polygonMu,
} from '@smart/contracts/agriculture';
import type { Page } from '@smart/contracts/core';
import { paramResource } from '@smart/contracts/system';
import { deviceResource } from '@smart/contracts/telemetry';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Drawer,
  Empty,
  Select,
  Space,
  Tabs,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import { type ChangeEvent, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CrudPage, type FieldOverride, type Row } from '../../platform/crud/CrudPage';
import { CodeAreaControl } from '../../platform/crud/controls';
import { RecordDialog } from '../../platform/crud/RecordDialog';
import type { FieldControlProps } from '../../platform/crud/types';
import { getData, postData } from '../../platform/http/client';
import { can, useSession } from '../../platform/session/session';
import type { AgriMarker } from './map/AgriMap';
import type { LngLat } from './map/geo';
import { AgriMap } from './map/LazyAgriMap';
import '../telemetry/i18n';

const BASE = '/api/dfem-hope-manage/smartPlant/plot';
const DEVICE_BASE = '/api/dfem-hope-manage/smartPlant/deviceManage';
const code = plotResource.permission;

/** The polygon typed as text, with its area in 亩 below it as it changes (read to screen readers). */
function PolygonWithArea(props: FieldControlProps) {
  const { t } = useTranslation();
  const mu = polygonMu(props.value);
  return (
    <div>
      <CodeAreaControl {...props} />
      <Typography.Text
        type={mu === null ? 'secondary' : undefined}
        aria-live="polite"
        data-testid="plot-area"
      >
        {mu === null ? t('agriculture.areaUnknown') : t('agriculture.areaLive', { area: mu.toFixed(2) })}
      </Typography.Text>
    </div>
  );
}

const fields: Record<string, FieldOverride> = {
  polygon: { control: (p) => <PolygonWithArea {...p} /> },
  ownerVillagerId: { hidden: (v) => String(v.ownerKind ?? '') !== '1' },
  cooperationId: { hidden: (v) => String(v.ownerKind ?? '') !== '2' },
};

const corners = (v: unknown): LngLat[] => {
  try {
    const p = typeof v === 'string' ? JSON.parse(v) : v;
    return Array.isArray(p) ? (p as LngLat[]) : [];
  } catch {
    return [];
  }
};

function PlotHistory({ plot, onClose }: { plot: Row; onClose: () => void }) {
  const { t } = useTranslation();
  const { data, isLoading } = useQuery({
    queryKey: ['crud', 'plantRecord', 'history', plot.id],
    queryFn: () =>
      getData<PlotHistoryItem[]>('/api/dfem-hope-manage/smartPlant/record/plot/history', { plotId: plot.id }),
  });
  return (
    <Drawer
      open
      width={520}
      onClose={onClose}
      title={t('agriculture.historyTitle', { name: String(plot.name) })}
    >
      {!isLoading && !data?.length ? (
        <Empty description={t('agriculture.historyEmpty')} />
      ) : (
        <Timeline
          pending={isLoading}
          items={(data ?? []).map((i) => ({
            key: `${i.kind}-${i.id}`,
            color: i.kind === 'record' ? 'green' : i.overdue ? 'red' : i.doneDate ? 'blue' : 'gray',
            children: (
              <div>
                <Typography.Text strong>
                  {i.date} · {i.operationName}
                </Typography.Text>{' '}
                <Tag>{t(i.kind === 'record' ? 'agriculture.record' : 'agriculture.step')}</Tag>
                {i.kind === 'step' &&
                  (i.overdue ? (
                    <Tag color="red">{t('agriculture.overdue')}</Tag>
                  ) : i.doneDate ? (
                    <Tag color="blue">{t('agriculture.done', { date: i.doneDate })}</Tag>
                  ) : (
                    <Tag>{t('agriculture.pending')}</Tag>
                  ))}
                <div>
                  {i.kind === 'record'
                    ? [i.operatorName && `${t('agriculture.operator')}: ${i.operatorName}`, i.inputs]
                        .filter(Boolean)
                        .join(' · ')
                    : [i.planName, i.content].filter(Boolean).join(' · ')}
                </div>
              </div>
            ),
          }))}
        />
      )}
    </Drawer>
  );
}

/**
 * The telemetry core's devices on the same map, coloured by what their readings say (online green, silent
 * red, never heard from grey), for whoever may open the device list; read again every 30 seconds.
 */
function useDeviceMarkers(): AgriMarker[] {
  const { t } = useTranslation();
  const allowed = can(deviceResource.permission);
  const devices = useQuery({
    queryKey: ['crud', deviceResource.key, 'map'],
    queryFn: () => getData<Page<Row>>(`${DEVICE_BASE}/list`, { current: 1, size: 500 }),
    enabled: allowed,
    refetchInterval: 30_000,
  });
  return useMemo(
    () =>
      (devices.data?.records ?? []).flatMap((d) => {
        const [lng, lat] = String(d.location ?? '')
          .split(',')
          .map(Number);
        if (!Number.isFinite(lng) || !Number.isFinite(lat) || !d.location) return [];
        const state = !d.lastSeenAt ? 'noData' : Number(d.online) === 1 ? 'online' : 'offline';
        const colour = state === 'online' ? '#389e0d' : state === 'offline' ? '#cf1322' : '#8c8c8c';
        return [
          {
            id: String(d.id),
            lngLat: [lng, lat] as LngLat,
            label: `${String(d.name)} · ${t(`telemetry.${state}`)}`,
            colour,
          },
        ];
      }),
    [devices.data, t],
  );
}

/** The map tab: every plot, drawing, importing, editing a boundary. */
function PlotMap() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  useSession((s) => s.permission);
  const settings = useQuery({
    queryKey: ['agriculture', 'map-settings'],
    queryFn: () => getData<AgriMapSettings>(`${BASE}/map/settings`),
    staleTime: 60_000,
  });
  const plots = useQuery({
    queryKey: ['crud', plotResource.key, 'map'],
    queryFn: () => getData<Page<Row>>(`${BASE}/list`, { current: 1, size: 200 }),
  });
  const markers = useDeviceMarkers();
  const [drawing, setDrawing] = useState(false);
  const [live, setLive] = useState<LngLat[]>([]);
  const [pending, setPending] = useState<LngLat[] | null>(null);
  const [selectedId, setSelectedId] = useState<string>();
  const [editing, setEditing] = useState(false);
  const [edited, setEdited] = useState<LngLat[] | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const rows = useMemo(() => plots.data?.records ?? [], [plots.data]);
  const mapPlots = useMemo(
    () => rows.map((r) => ({ id: r.id, name: String(r.name), polygon: corners(r.polygon) })),
    [rows],
  );
  const canAdd = can(`${code}_add`);
  const canEdit = can(`${code}_edit`);
  const refresh = () => qc.invalidateQueries({ queryKey: ['crud', plotResource.key] });

  const liveMu = live.length >= 3 ? polygonMu(live) : 0;
  const onImport = async (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0];
    e.target.value = '';
    if (!f) return;
    try {
      const { polygonsOfFile } = await import('./map/geo');
      const found = await polygonsOfFile(f);
      if (!found.length) {
        message.warning(t('agriculture.importNone'));
        return;
      }
      if (found.length > 1) message.info(t('agriculture.importedMany', { count: found.length }));
      setPending(found[0]);
    } catch {
      message.error(t('agriculture.importBad'));
    }
  };
  const saveBoundary = async () => {
    if (!selectedId || !edited) return setEditing(false);
    await postData(`${BASE}/upsert`, { id: selectedId, polygon: JSON.stringify(edited) });
    message.success(t('agriculture.boundarySaved'));
    setEditing(false);
    setEdited(null);
    await refresh();
  };

  return (
    <Card variant="borderless" styles={{ body: { padding: 16 } }}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          aria-label={t('agriculture.pickPlot')}
          placeholder={t('agriculture.pickPlot')}
          style={{ width: 220 }}
          allowClear
          value={selectedId}
          disabled={editing}
          onChange={(v) => setSelectedId(v)}
          options={rows.map((r) => ({ value: r.id, label: String(r.name) }))}
        />
        {canAdd &&
          (drawing ? (
            <Button
              onClick={() => {
                setDrawing(false);
                setLive([]);
              }}
            >
              {t('agriculture.cancelDraw')}
            </Button>
          ) : (
            <Button
              type="primary"
              disabled={editing}
              onClick={() => {
                setSelectedId(undefined);
                setPending(null);
                setLive([]);
                setDrawing(true);
              }}
            >
              {t('agriculture.draw')}
            </Button>
          ))}
        {canAdd && (
          <>
            <Button disabled={drawing || editing} onClick={() => file.current?.click()}>
              {t('agriculture.import')}
            </Button>
            <input
              ref={file}
              type="file"
              accept=".json,.geojson,.kml,application/geo+json,application/vnd.google-earth.kml+xml"
              aria-label={t('agriculture.import')}
              style={{ display: 'none' }}
              onChange={onImport}
            />
          </>
        )}
        {canEdit &&
          selectedId &&
          (editing ? (
            <>
              <Button type="primary" onClick={saveBoundary}>
                {t('agriculture.saveBoundary')}
              </Button>
              <Button
                onClick={() => {
                  setEditing(false);
                  setEdited(null);
                  void refresh();
                }}
              >
                {t('agriculture.cancelEdit')}
              </Button>
            </>
          ) : (
            <Button disabled={drawing} onClick={() => setEditing(true)}>
              {t('agriculture.editBoundary')}
            </Button>
          ))}
      </Space>
      <div aria-live="polite" style={{ minHeight: 22, marginBottom: 8 }} data-testid="map-area">
        {drawing ? (
          live.length ? (
            t('agriculture.drawing', { count: live.length, area: (liveMu ?? 0).toFixed(2) })
          ) : (
            <Typography.Text type="secondary">{t('agriculture.drawHint')}</Typography.Text>
          )
        ) : editing && edited ? (
          t('agriculture.drawnArea', { area: (polygonMu(edited) ?? 0).toFixed(2) })
        ) : null}
      </div>
      {settings.data && !settings.data.key && settings.data.tiles.includes('{key}') && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="map-key-prompt"
          title={t('agriculture.mapEmpty')}
          description={t('agriculture.mapKeyHow')}
          action={
            can(`${paramResource.permission}_add`) && (
              <Link to={`${paramResource.route}/index`}>{t('agriculture.mapKeyGo')}</Link>
            )
          }
        />
      )}
      {settings.data && (
        <AgriMap
          label={t('agriculture.mapLabel')}
          settings={settings.data}
          plots={mapPlots}
          markers={markers}
          selectedId={selectedId}
          onSelect={(id) => !drawing && !editing && setSelectedId(id)}
          drawing={drawing}
          onDrawing={setLive}
          onDrawn={(ring) => {
            setDrawing(false);
            setLive(ring);
            setPending(ring);
          }}
          editing={editing}
          onEdited={setEdited}
          pending={pending}
        />
      )}
      <ul aria-label={t('agriculture.plots')} style={{ marginTop: 12, paddingLeft: 20 }}>
        {rows.map((r) => (
          <li key={r.id}>
            <Button
              type="link"
              size="small"
              onClick={() => setSelectedId(r.id)}
              disabled={drawing || editing}
            >
              {String(r.name)}
            </Button>
            {t('agriculture.drawnArea', { area: Number(r.area ?? 0).toFixed(2) })}
          </li>
        ))}
      </ul>
      {pending && (
        <RecordDialog
          def={plotResource}
          mode="add"
          defaults={{ polygon: JSON.stringify(pending), ownerKind: '3' }}
          overrides={fields}
          submitPath="upsert"
          onClose={() => setPending(null)}
          onSaved={async () => {
            message.success(t('common.added'));
            setPending(null);
            setLive([]);
            await refresh();
          }}
        />
      )}
    </Card>
  );
}

export default function PlotPage() {
  const { t } = useTranslation();
  useSession((s) => s.permission);
  const [history, setHistory] = useState<Row | null>(null);
  return (
    <>
      <Tabs
        defaultActiveKey="list"
        destroyOnHidden
        items={[
          {
            key: 'list',
            label: t('agriculture.listTab'),
            children: (
              <CrudPage
                def={plotResource}
                submitPath="upsert"
                fields={fields}
                rowActions={(row) =>
                  // the history is a view of the records: shown to whoever may view them
                  can(`${plantRecordResource.permission}_view`) && (
                    <Button type="link" size="small" onClick={() => setHistory(row)}>
                      {t('agriculture.history')}
                    </Button>
                  )
                }
              />
            ),
          },
          { key: 'map', label: t('agriculture.mapTab'), children: <PlotMap /> },
        ]}
      />
      {history && <PlotHistory plot={history} onClose={() => setHistory(null)} />}
    </>
  );
}
