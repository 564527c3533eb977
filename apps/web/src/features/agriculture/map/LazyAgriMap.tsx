/**
 * AgriMap loaded on first use: Leaflet, leaflet-geoman and gcoord stay out of every chunk but the map's
 * (the home and /login budgets). Screens that draw on the map — plots here, devices for the telemetry core
 * — import this and pass their markers.
 */
import { Spin } from 'antd';
import { lazy, Suspense } from 'react';
import type { AgriMapProps } from './AgriMap';

export type { AgriMapPlot, AgriMapProps, AgriMarker } from './AgriMap';

const LoadedMap = lazy(() => import('./AgriMap'));

export function AgriMap(props: AgriMapProps) {
  return (
    <Suspense fallback={<Spin />}>
      <LoadedMap {...props} />
    </Suspense>
  );
}
