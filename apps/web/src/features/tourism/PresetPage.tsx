/**
 * 旅游预设: the places' list (the generic page) and their map — every enabled or not place as a marker
 * coloured by its type, every route as a line, one picked from the lists beside the map.
 */
import './i18n';
import type { AgriMapSettings } from '@smart/contracts/agriculture';
import { MAX_PAGE_SIZE, type Page } from '@smart/contracts/core';
import { tourismPresetsResource, tourismRouteResource } from '@smart/contracts/tourism';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Row as GridRow, Tabs, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import { getData } from '../../platform/http/client';
import { can, useSession } from '../../platform/session/session';
import type { LngLat } from '../agriculture/map/geo';
import { TourismMap } from './map/LazyTourismMap';

const BASE = '/api/dfem-hope-manage/tourismPresets';
const ROUTE_BASE = '/api/dfem-hope-manage/tourismRoute';
/** a type's colour on the map: attraction, homestay, farm stay, produce shop */
export const TYPE_COLOURS: Record<string, string> = {
  '1': '#389e0d',
  '2': '#1677ff',
  '3': '#d46b08',
  '4': '#c41d7f',
};

/** `lng,lat` → the two numbers, or undefined */
export const pointOf = (v: unknown): LngLat | undefined => {
  const [lng, lat] = String(v ?? '')
    .split(',')
    .map(Number);
  return v && Number.isFinite(lng) && Number.isFinite(lat) ? [lng, lat] : undefined;
};
/** a line's JSON text → its points (none when it is not one) */
export const pointsOf = (v: unknown): LngLat[] => {
  try {
    const p = typeof v === 'string' ? JSON.parse(v) : v;
    return Array.isArray(p) ? (p as LngLat[]) : [];
  } catch {
    return [];
  }
};

/** The map settings (the plots' tile parameters), read through a tourism resource the caller may open. */
export function useMapSettings(base: string) {
  return useQuery({
    queryKey: ['tourism', 'map-settings', base],
    queryFn: () => getData<AgriMapSettings>(`${base}/map/settings`),
    staleTime: 60_000,
  });
}

function PlaceMap() {
  const { t } = useTranslation();
  useSession((s) => s.permission);
  const settings = useMapSettings(BASE);
  const places = useQuery({
    queryKey: ['crud', tourismPresetsResource.key, 'map'],
    queryFn: () => getData<Page<Row>>(`${BASE}/page`, { current: 1, size: MAX_PAGE_SIZE }),
  });
  const mayRoutes = can(`${tourismRouteResource.permission}_view`);
  const routes = useQuery({
    queryKey: ['crud', tourismRouteResource.key, 'map'],
    queryFn: () => getData<Page<Row>>(`${ROUTE_BASE}/page`, { current: 1, size: 200 }),
    enabled: mayRoutes,
  });
  const [selectedId, setSelectedId] = useState<string>();
  const placeRows = places.data?.records ?? [];
  const routeRows = routes.data?.records ?? [];
  const mapPlaces = useMemo(
    () =>
      (places.data?.records ?? []).flatMap((r) => {
        const p = pointOf(r.location);
        return p
          ? [
              {
                id: r.id,
                name: `${String(r.name)} · ${String(r.typeName ?? '')}`,
                lngLat: p,
                colour: TYPE_COLOURS[String(r.type)] ?? '#8c8c8c',
              },
            ]
          : [];
      }),
    [places.data],
  );
  const lines = useMemo(
    () =>
      (routes.data?.records ?? []).map((r) => ({
        id: r.id,
        name: String(r.name),
        points: pointsOf(r.points),
      })),
    [routes.data],
  );
  return (
    <Card variant="borderless" styles={{ body: { padding: 16 } }}>
      {settings.data && !settings.data.key && settings.data.tiles.includes('{key}') && (
        <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('tourism.mapNoKey')} />
      )}
      <GridRow gutter={16}>
        <Col xs={24} lg={17}>
          {settings.data && (
            <TourismMap
              label={t('tourism.mapLabel')}
              settings={settings.data}
              places={mapPlaces}
              lines={lines}
              selectedId={selectedId}
              onSelect={setSelectedId}
              height={520}
            />
          )}
        </Col>
        <Col xs={24} lg={7}>
          <Typography.Title level={5}>{t('tourism.places')}</Typography.Title>
          <ul aria-label={t('tourism.places')} style={{ paddingLeft: 20 }}>
            {placeRows.map((r) => (
              <li key={r.id}>
                <span
                  aria-hidden
                  style={{
                    display: 'inline-block',
                    width: 10,
                    height: 10,
                    borderRadius: 5,
                    marginRight: 6,
                    background: TYPE_COLOURS[String(r.type)] ?? '#8c8c8c',
                  }}
                />
                <Button type="link" size="small" onClick={() => setSelectedId(r.id)}>
                  {String(r.name)}
                </Button>
                {String(r.typeName ?? '')}
              </li>
            ))}
          </ul>
          {mayRoutes && (
            <>
              <Typography.Title level={5}>{t('tourism.routes')}</Typography.Title>
              <ul aria-label={t('tourism.routes')} style={{ paddingLeft: 20 }}>
                {routeRows.map((r) => (
                  <li key={r.id}>
                    <Button type="link" size="small" onClick={() => setSelectedId(r.id)}>
                      {String(r.name)}
                    </Button>
                    {t('crud.lineLength', { km: Number(r.lengthKm ?? 0).toFixed(2) })}
                  </li>
                ))}
              </ul>
            </>
          )}
        </Col>
      </GridRow>
    </Card>
  );
}

export default function PresetPage() {
  const { t } = useTranslation();
  return (
    <Tabs
      defaultActiveKey="list"
      destroyOnHidden
      items={[
        { key: 'list', label: t('tourism.listTab'), children: <CrudPage def={tourismPresetsResource} /> },
        { key: 'map', label: t('tourism.mapTab'), children: <PlaceMap /> },
      ]}
    />
  );
}
