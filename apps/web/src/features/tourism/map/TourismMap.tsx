/**
 * The tourism map (Leaflet through react-leaflet, lines drawn and edited with leaflet-geoman — the stack of
 * the plots' map, its coordinates helpers and tile settings): the places as coloured markers, routes as
 * lines, a new line drawn point by point (its points reported live, so the form shows its length as it
 * grows) and one line edited in place (its vertices dragged). Everything it is given and reports is WGS-84;
 * tiles in GCJ-02 or BD-09 are drawn on through gcoord. Without a tile source the places and lines are drawn
 * on an empty base. A heavy chunk: load it lazily (LazyTourismMap).
 */
import '../../agriculture/map/leaflet-global';
import '@geoman-io/leaflet-geoman-free';
import '@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css';
import 'leaflet/dist/leaflet.css';
import type { AgriMapSettings } from '@smart/contracts/agriculture';
import L from 'leaflet';
import { useEffect, useMemo, useRef } from 'react';
import { CircleMarker, Polyline, Tooltip, useMap } from 'react-leaflet';
import { MapFrame, mapLatLng, useFitOnce } from '../../agriculture/map/AgriMap';
import { fromMap, type LngLat } from '../../agriculture/map/geo';

export interface TourismPlace {
  id: string;
  name: string;
  lngLat: LngLat;
  colour: string;
}

export interface TourismLine {
  id: string;
  name: string;
  points: LngLat[];
}

export interface TourismMapProps {
  settings: AgriMapSettings;
  label: string;
  places?: readonly TourismPlace[];
  lines?: readonly TourismLine[];
  selectedId?: string;
  onSelect?: (id: string) => void;
  /** draw a new line: each point placed reports the points so far */
  drawing?: boolean;
  onDrawing?: (points: LngLat[]) => void;
  /** the line being edited (the form's): drawn dashed, its vertices dragged while `onEdited` is given */
  edited?: LngLat[] | null;
  onEdited?: (points: LngLat[]) => void;
  height?: number | string;
}

/** Changsha, where the demo village lies, when there is nothing to fit */

export function TourismMap({
  settings,
  label,
  places = [],
  lines = [],
  selectedId,
  onSelect,
  drawing,
  onDrawing,
  edited,
  onEdited,
  height = 420,
}: TourismMapProps) {
  const crs = settings.crs;
  return (
    <MapFrame label={label} height={height} settings={settings}>
      {lines.map((l) => (
        <Polyline
          key={l.id}
          positions={l.points.map((p) => mapLatLng(p, crs))}
          pathOptions={{
            color: l.id === selectedId ? '#d4380d' : '#1677ff',
            weight: l.id === selectedId ? 5 : 3,
          }}
          eventHandlers={{ click: () => onSelect?.(l.id) }}
        >
          <Tooltip sticky>{l.name}</Tooltip>
        </Polyline>
      ))}
      {places.map((m) => (
        <CircleMarker
          key={m.id}
          center={mapLatLng(m.lngLat, crs)}
          radius={m.id === selectedId ? 10 : 7}
          pathOptions={{ color: m.colour, fillColor: m.colour, fillOpacity: 0.85 }}
          eventHandlers={{ click: () => onSelect?.(m.id) }}
        >
          <Tooltip>{m.name}</Tooltip>
        </CircleMarker>
      ))}
      {edited && edited.length >= 2 && !drawing && (
        <EditedLine points={edited} crs={crs} onEdited={onEdited} />
      )}
      <FitTo places={places} lines={lines} edited={edited} selectedId={selectedId} crs={crs} />
      <Resized />
      <Draw active={!!drawing} onDrawing={(ll) => onDrawing?.(ll.map((x) => fromMap([x.lng, x.lat], crs)))} />
    </MapFrame>
  );
}

/** The form's line, dashed orange; its vertices dragged (leaflet-geoman's edit mode) while it reports edits. */
function EditedLine({
  points,
  crs,
  onEdited,
}: {
  points: LngLat[];
  crs: AgriMapSettings['crs'];
  onEdited?: (points: LngLat[]) => void;
}) {
  const ref = useRef<L.Polyline>(null);
  // the same positions while the line is the same: a new array would reset a line being edited
  const key = JSON.stringify(points);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the points' text
  const positions = useMemo(() => points.map((p) => mapLatLng(p, crs)), [key, crs]);
  const report = useRef(onEdited);
  report.current = onEdited;
  const editable = !!onEdited;
  useEffect(() => {
    const layer = ref.current;
    if (!layer || !editable) return;
    const told = () =>
      report.current?.((layer.getLatLngs() as L.LatLng[]).map((x) => fromMap([x.lng, x.lat], crs)));
    layer.pm.enable({ snappable: false });
    layer.on('pm:edit', told);
    return () => {
      layer.off('pm:edit', told);
      layer.pm.disable();
    };
  }, [editable, crs]);
  return (
    <Polyline
      ref={ref}
      positions={positions}
      pathOptions={{ color: '#fa8c16', weight: 4, dashArray: '8 6' }}
    />
  );
}

/** A map opened in a dialog measures itself once the dialog has its size. */
function Resized() {
  const map = useMap();
  useEffect(() => {
    const t = window.setTimeout(() => map.invalidateSize(), 120);
    return () => window.clearTimeout(t);
  }, [map]);
  return null;
}

/** Fits the view to what is drawn once it arrives, and to the selected line or place when it changes. */
function FitTo({
  places,
  lines,
  edited,
  selectedId,
  crs,
}: {
  places: readonly TourismPlace[];
  lines: readonly TourismLine[];
  edited?: LngLat[] | null;
  selectedId?: string;
  crs: AgriMapSettings['crs'];
}) {
  const map = useMap();
  const all = useMemo(
    () => [...places.map((p) => p.lngLat), ...lines.flatMap((l) => l.points), ...(edited ?? [])],
    [places, lines, edited],
  );
  useFitOnce(all, crs, { padding: [32, 32], maxZoom: 17 });
  useEffect(() => {
    const line = lines.find((l) => l.id === selectedId);
    const place = places.find((p) => p.id === selectedId);
    if (line?.points.length)
      map.fitBounds(L.latLngBounds(line.points.map((p) => mapLatLng(p, crs))), {
        padding: [48, 48],
        maxZoom: 18,
      });
    else if (place) map.setView(mapLatLng(place.lngLat, crs), Math.max(map.getZoom(), 16));
  }, [selectedId, lines, places, map, crs]);
  return null;
}

/** leaflet-geoman's line drawing while `active`: the points reported as placed. */
function Draw({ active, onDrawing }: { active: boolean; onDrawing: (points: L.LatLng[]) => void }) {
  const map = useMap();
  const handler = useRef(onDrawing);
  handler.current = onDrawing;
  useEffect(() => {
    if (!active) return;
    const onStart = (e: { workingLayer: L.Layer }) => {
      const layer = e.workingLayer as L.Polyline;
      layer.on('pm:vertexadded', () => handler.current((layer.getLatLngs() as L.LatLng[]).slice()));
    };
    // a line finished on the map (its last point clicked again) keeps its points; the page saves them
    const onCreate = (e: { layer: L.Layer }) => {
      const layer = e.layer as L.Polyline;
      handler.current((layer.getLatLngs() as L.LatLng[]).slice());
      layer.remove();
    };
    map.on('pm:drawstart', onStart as unknown as L.LeafletEventHandlerFn);
    map.on('pm:create', onCreate as unknown as L.LeafletEventHandlerFn);
    map.pm.enableDraw('Line', {
      snappable: false,
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

export default TourismMap;
