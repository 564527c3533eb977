/** TourismMap loaded on first use: Leaflet, leaflet-geoman and gcoord stay in the map's chunk. */
import { Spin } from 'antd';
import { lazy, Suspense } from 'react';
import type { TourismMapProps } from './TourismMap';

export type { TourismLine, TourismMapProps, TourismPlace } from './TourismMap';

const LoadedMap = lazy(() => import('./TourismMap'));

export function TourismMap(props: TourismMapProps) {
  return (
    <Suspense fallback={<Spin />}>
      <LoadedMap {...props} />
    </Suspense>
  );
}
