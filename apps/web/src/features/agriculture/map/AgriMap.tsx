/**
 * The agriculture map (Leaflet through react-leaflet, polygons drawn and edited with leaflet-geoman): the
 * plots as polygons, extra markers (devices, when the telemetry core draws them: `{ id, lngLat, label,
 * colour }`), a new polygon drawn corner by corner (its corners reported live, so the page shows the area in
 * 亩 as it grows), and the selected plot's boundary edited in place. Everything it is given and reports is
 * WGS-84; tiles in GCJ-02 or BD-09 are drawn on through gcoord. Without a tile source (or without the key
 * its template needs) the plots are drawn on an empty base. A heavy chunk: load it lazily (LazyAgriMap).
 *
 * Keyboard: the map takes the focus (arrows pan, + and − zoom); plots are picked from the page's list.
 */
import './leaflet-global';
import '@geoman-io/leaflet-geoman-free';
import '@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css';
import 'leaflet/dist/leaflet.css';
import type { AgriMapSettings } from '@smart/contracts/agriculture';
import L from 'leaflet';
import { type ReactNode, useEffect, useMemo, useRef } from 'react';
import { CircleMarker, MapContainer, Polygon, TileLayer, Tooltip, useMap } from 'react-leaflet';
import { fromMap, type LngLat, openRing, toMap } from './geo';

export interface AgriMarker {
  id: string;
  /** WGS-84 longitude, latitude */
  lngLat: LngLat;
  label: string;
  colour: string;
}

export interface AgriMapPlot {
  id: string;
  name: string;
  /** WGS-84 corners */
  polygon: LngLat[];
  colour?: string;
}

export interface AgriMapProps {
  settings: AgriMapSettings;
  plots: readonly AgriMapPlot[];
  markers?: readonly AgriMarker[];
  /** the map's accessible name */
  label: string;
  selectedId?: string;
  onSelect?: (id: string) => void;
  /** draw a new polygon: each corner placed reports the corners so far; the finished ring, once */
  drawing?: boolean;
  onDrawing?: (corners: LngLat[]) => void;
  onDrawn?: (corners: LngLat[]) => void;
  /** edit the selected plot's boundary: each change reports its corners */
  editing?: boolean;
  onEdited?: (corners: LngLat[]) => void;
  /** a polygon shown but not yet saved (drawn or imported) */
  pending?: LngLat[] | null;
  height?: number | string;
}

/** Changsha, where the demo village lies, when there is nothing to fit */
const CENTRE: L.LatLngTuple = [28.2, 112.9];

/** Whether the settings name tiles that can be asked for (a template that needs a key has one). */
export function hasTiles(s: AgriMapSettings): boolean {
  return !!s.tiles && (!s.tiles.includes('{key}') || !!s.key);
}

/** A point of the village's data as Leaflet takes it: [lat, lng] in the map's coordinate system. */
export const mapLatLng = (p: LngLat, crs: AgriMapSettings['crs']): L.LatLngTuple => {
  const [x, y] = toMap(p, crs);
  return [y, x];
};

/**
 * The map fitted to `points` once, the first time there are any (as the page opens); later changes of them
 * leave the view the person has chosen. Inside a MapFrame.
 */
export function useFitOnce(
  points: readonly LngLat[],
  crs: AgriMapSettings['crs'],
  options: L.FitBoundsOptions,
) {
  const map = useMap();
  const fitted = useRef(false);
  const opts = useRef(options);
  useEffect(() => {
    if (fitted.current || !points.length) return;
    fitted.current = true;
    map.fitBounds(L.latLngBounds(points.map((p) => mapLatLng(p, crs))), opts.current);
  }, [points, map, crs]);
}

/**
 * The village's map: its frame (named for screen readers), centre and tiles; the plots' map and the tourism
 * places' map draw their shapes inside it.
 */
export function MapFrame(props: {
  label: string;
  height: number | string;
  settings: AgriMapSettings;
  children: ReactNode;
}) {
  const { settings } = props;
  return (
    <section aria-label={props.label} style={{ height: props.height, width: '100%' }}>
      <MapContainer
        center={CENTRE}
        zoom={15}
        style={{ height: '100%', width: '100%', background: '#f5f7f5' }}
        keyboard
        attributionControl={false}
      >
        {hasTiles(settings) && (
          <TileLayer
            url={settings.tiles.replaceAll('{key}', encodeURIComponent(settings.key))}
            subdomains={settings.subdomains || 'abc'}
            maxZoom={18}
          />
        )}
        {props.children}
      </MapContainer>
    </section>
  );
}

export function AgriMap({
  settings,
  plots,
  markers = [],
  label,
  selectedId,
  onSelect,
  drawing,
  onDrawing,
  onDrawn,
  editing,
  onEdited,
  pending,
  height = 480,
}: AgriMapProps) {
  const crs = settings.crs;
  const latLngs = (ring: readonly LngLat[]) =>
    ring.map((p) => {
      const [x, y] = toMap(p, crs);
      return [y, x] as L.LatLngTuple;
    });
  return (
    <MapFrame label={label} height={height} settings={settings}>
      {plots.map((p) => (
        <PlotShape
          key={p.id}
          plot={p}
          crs={crs}
          selected={p.id === selectedId}
          editing={!!editing && p.id === selectedId}
          onSelect={onSelect}
          onEdited={onEdited ? (ll) => onEdited(ll.map((x) => fromMap([x.lng, x.lat], crs))) : undefined}
        />
      ))}
      {pending && pending.length >= 3 && (
        <Polygon positions={latLngs(pending)} pathOptions={{ color: '#fa8c16', dashArray: '6 4' }} />
      )}
      {markers.map((m) => {
        const [x, y] = toMap(m.lngLat, crs);
        return (
          <CircleMarker
            key={m.id}
            center={[y, x]}
            radius={7}
            pathOptions={{ color: m.colour, fillColor: m.colour, fillOpacity: 0.8 }}
          >
            <Tooltip>{m.label}</Tooltip>
          </CircleMarker>
        );
      })}
      <FitTo plots={plots} markers={markers} pending={pending} selectedId={selectedId} crs={crs} />
      <Draw
        active={!!drawing}
        onDrawing={(ll) => onDrawing?.(ll.map((x) => fromMap([x.lng, x.lat], crs)))}
        onDrawn={(ll) => onDrawn?.(openRing(ll.map((x) => fromMap([x.lng, x.lat], crs))))}
      />
    </MapFrame>
  );
}

function PlotShape({
  plot,
  crs,
  selected,
  editing,
  onSelect,
  onEdited,
}: {
  plot: AgriMapPlot;
  crs: AgriMapSettings['crs'];
  selected: boolean;
  editing: boolean;
  onSelect?: (id: string) => void;
  onEdited?: (corners: L.LatLng[]) => void;
}) {
  const ref = useRef<L.Polygon>(null);
  // the same positions while the plot is the same: a new array would reset a boundary being edited
  const positions = useMemo(
    () =>
      plot.polygon.map((p) => {
        const [x, y] = toMap(p, crs);
        return [y, x] as L.LatLngTuple;
      }),
    [plot.polygon, crs],
  );
  const edited = useRef(onEdited);
  edited.current = onEdited;
  useEffect(() => {
    const layer = ref.current;
    if (!layer || !editing) return;
    const report = () => edited.current?.((layer.getLatLngs() as L.LatLng[][])[0] ?? []);
    layer.pm.enable({ allowSelfIntersection: false });
    layer.on('pm:edit', report);
    return () => {
      layer.off('pm:edit', report);
      layer.pm.disable();
    };
  }, [editing]);
  const colour = plot.colour ?? '#1677ff';
  return (
    <Polygon
      ref={ref}
      positions={positions}
      pathOptions={{
        color: selected ? '#d4380d' : colour,
        weight: selected ? 3 : 2,
        fillOpacity: selected ? 0.3 : 0.15,
      }}
      eventHandlers={{ click: () => onSelect?.(plot.id) }}
    >
      <Tooltip sticky>{plot.name}</Tooltip>
    </Polygon>
  );
}

/** Fits the view to the plots and markers once they arrive, and to the selected plot when it changes. */
function FitTo({
  plots,
  markers,
  pending,
  selectedId,
  crs,
}: {
  plots: readonly AgriMapPlot[];
  markers: readonly AgriMarker[];
  pending?: LngLat[] | null;
  selectedId?: string;
  crs: AgriMapSettings['crs'];
}) {
  const map = useMap();
  const all = useMemo(
    () => [...plots.flatMap((p) => p.polygon), ...markers.map((m) => m.lngLat), ...(pending ?? [])],
    [plots, markers, pending],
  );
  useFitOnce(all, crs, { padding: [24, 24] });
  useEffect(() => {
    const plot = plots.find((p) => p.id === selectedId);
    if (!plot?.polygon.length) return;
    map.fitBounds(L.latLngBounds(plot.polygon.map((p) => mapLatLng(p, crs))), {
      padding: [48, 48],
      maxZoom: 18,
    });
  }, [selectedId, plots, map, crs]);
  return null;
}

/** leaflet-geoman's polygon drawing while `active`: corners reported as placed, the finished ring once. */
function Draw({
  active,
  onDrawing,
  onDrawn,
}: {
  active: boolean;
  onDrawing: (corners: L.LatLng[]) => void;
  onDrawn: (corners: L.LatLng[]) => void;
}) {
  const map = useMap();
  const handlers = useRef({ onDrawing, onDrawn });
  handlers.current = { onDrawing, onDrawn };
  useEffect(() => {
    if (!active) return;
    const onStart = (e: { workingLayer: L.Layer }) => {
      const layer = e.workingLayer as L.Polyline;
      layer.on('pm:vertexadded', () =>
        handlers.current.onDrawing((layer.getLatLngs() as L.LatLng[]).slice()),
      );
    };
    const onCreate = (e: { layer: L.Layer }) => {
      const layer = e.layer as L.Polygon;
      const ring = ((layer.getLatLngs() as L.LatLng[][])[0] ?? []).slice();
      layer.remove();
      handlers.current.onDrawn(ring);
    };
    map.on('pm:drawstart', onStart as unknown as L.LeafletEventHandlerFn);
    map.on('pm:create', onCreate as unknown as L.LeafletEventHandlerFn);
    map.pm.enableDraw('Polygon', {
      allowSelfIntersection: false,
      snappable: false,
      finishOnEnter: true,
      templineStyle: { color: '#fa8c16' },
      hintlineStyle: { color: '#fa8c16', dashArray: [5, 5] },
    });
    return () => {
      map.pm.disableDraw();
      map.off('pm:drawstart', onStart as unknown as L.LeafletEventHandlerFn);
      map.off('pm:create', onCreate as unknown as L.LeafletEventHandlerFn);
    };
  }, [active, map]);
  return null;
}

export default AgriMap;
