/**
 * 旅游线路: the routes' list (the generic page) whose form draws the route's line on the map — point by
 * point with leaflet-geoman, its length in km shown as it grows (the contracts' `lineKilometres`, the number
 * the server stores) — or edits it in place (its points dragged) or as typed coordinates.
 */
import './i18n';
import { MAX_PAGE_SIZE, type Page } from '@smart/contracts/core';
import { lineKilometres } from '@smart/contracts/geo';
import { tourismPresetsResource, tourismRouteResource } from '@smart/contracts/tourism';
import { useQuery } from '@tanstack/react-query';
import { Button, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type FieldOverride, type Row } from '../../platform/crud/CrudPage';
import { CodeAreaControl } from '../../platform/crud/controls';
import { LineWithLength } from '../../platform/crud/GeoViews';
import { polygonText } from '../../platform/crud/geo';
import type { FieldControlProps } from '../../platform/crud/types';
import { getData } from '../../platform/http/client';
import { can } from '../../platform/session/session';
import type { LngLat } from '../agriculture/map/geo';
import { TourismMap } from './map/LazyTourismMap';
import { pointOf, pointsOf, TYPE_COLOURS, useMapSettings } from './PresetPage';

const BASE = '/api/dfem-hope-manage/tourismRoute';
const PRESETS = '/api/dfem-hope-manage/tourismPresets';

/** The line of a route's form: drawn or edited on the map, or typed; its length below it as it changes. */
function RouteLineControl({ value, onChange, ...props }: FieldControlProps) {
  const { t } = useTranslation();
  const settings = useMapSettings(BASE);
  const mayPlaces = can(`${tourismPresetsResource.permission}_view`);
  const places = useQuery({
    queryKey: ['crud', tourismPresetsResource.key, 'map'],
    queryFn: () => getData<Page<Row>>(`${PRESETS}/page`, { current: 1, size: MAX_PAGE_SIZE }),
    enabled: mayPlaces,
  });
  const mapPlaces = useMemo(
    () =>
      (places.data?.records ?? []).flatMap((r) => {
        const p = pointOf(r.location);
        return p
          ? [{ id: r.id, name: String(r.name), lngLat: p, colour: TYPE_COLOURS[String(r.type)] ?? '#8c8c8c' }]
          : [];
      }),
    [places.data],
  );
  const [drawing, setDrawing] = useState(false);
  const [live, setLive] = useState<LngLat[]>([]);
  const line = pointsOf(value);
  const set = (points: LngLat[]) => onChange?.(polygonText(JSON.stringify(points)));
  const liveKm = lineKilometres(live) ?? 0;
  return (
    <div>
      <Space wrap style={{ marginBottom: 8 }}>
        {drawing ? (
          <>
            <Button
              type="primary"
              disabled={live.length < 2}
              onClick={() => {
                set(live);
                setDrawing(false);
              }}
            >
              {t('tourism.finishLine')}
            </Button>
            <Button
              onClick={() => {
                setDrawing(false);
                setLive([]);
              }}
            >
              {t('tourism.stopDrawing')}
            </Button>
          </>
        ) : (
          <Button
            disabled={props.disabled}
            onClick={() => {
              setLive([]);
              setDrawing(true);
            }}
          >
            {line.length ? t('tourism.redrawLine') : t('tourism.drawLine')}
          </Button>
        )}
      </Space>
      <div aria-live="polite" style={{ minHeight: 22, marginBottom: 8 }} data-testid="route-drawing">
        {drawing ? (
          live.length ? (
            t('tourism.drawingLine', { count: live.length, km: liveKm.toFixed(2) })
          ) : (
            <Typography.Text type="secondary">{t('tourism.lineHint')}</Typography.Text>
          )
        ) : line.length >= 2 ? (
          <Typography.Text type="secondary">{t('tourism.lineEditHint')}</Typography.Text>
        ) : null}
      </div>
      {settings.data && (
        <TourismMap
          label={t('tourism.lineMapLabel')}
          settings={settings.data}
          places={mapPlaces}
          drawing={drawing}
          onDrawing={setLive}
          edited={line.length >= 2 ? line : null}
          onEdited={props.disabled ? undefined : set}
          height={320}
        />
      )}
      <div style={{ marginTop: 8 }}>
        <Typography.Text type="secondary">{t('tourism.typedPoints')}</Typography.Text>
        <LineWithLength value={value}>
          <CodeAreaControl
            {...props}
            value={value}
            onChange={onChange}
            hint={polygonText('[[112.9006,28.2014],[112.9029,28.2007],[112.9003,28.1991]]')}
          />
        </LineWithLength>
      </div>
    </div>
  );
}

const fields: Record<string, FieldOverride> = {
  points: {
    control: ({ mode: _mode, row: _row, ...p }) => <RouteLineControl {...p} />,
  },
};

export default function RoutePage() {
  return <CrudPage def={tourismRouteResource} fields={fields} />;
}
