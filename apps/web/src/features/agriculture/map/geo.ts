/**
 * The plot map's coordinates: plots are stored in WGS-84; tiles in GCJ-02 (高德, 腾讯) or BD-09 (百度) draw them
 * converted with gcoord, and what is drawn on such tiles is converted back before it is saved. And the files
 * a plot's boundary may be imported from: GeoJSON (a geometry, a feature or a collection) and KML.
 */
import type { AgriMapCrs } from '@smart/contracts/agriculture';
import gcoord from 'gcoord';

export type LngLat = [lng: number, lat: number];

const SYSTEM = { gcj02: gcoord.GCJ02, bd09: gcoord.BD09 } as const;
/** six decimals: about 10 cm, what a hand-drawn boundary means */
const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** WGS-84 → the tiles' system (as drawn on the map). */
export function toMap(p: LngLat, crs: AgriMapCrs): LngLat {
  if (crs === 'wgs84') return p;
  const [x, y] = gcoord.transform(p, gcoord.WGS84, SYSTEM[crs]) as LngLat;
  return [x, y];
}

/** The tiles' system (as drawn on the map) → WGS-84, as stored. */
export function fromMap(p: LngLat, crs: AgriMapCrs): LngLat {
  if (crs === 'wgs84') return [round(p[0]), round(p[1])];
  const [x, y] = gcoord.transform(p, SYSTEM[crs], gcoord.WGS84) as LngLat;
  return [round(x), round(y)];
}

/** A ring as stored: open (its first corner not repeated at the end), at least the corners given. */
export function openRing(ring: LngLat[]): LngLat[] {
  if (ring.length > 1) {
    const [a, b] = [ring[0], ring[ring.length - 1]];
    if (a[0] === b[0] && a[1] === b[1]) return ring.slice(0, -1);
  }
  return ring;
}

interface Geometry {
  type: string;
  coordinates?: unknown;
  geometries?: Geometry[];
}

/** Every polygon's outer ring in a GeoJSON value (geometry, feature, collection), in order. */
export function polygonsOfGeoJson(value: unknown): LngLat[][] {
  const out: LngLat[][] = [];
  const visit = (v: unknown) => {
    if (!v || typeof v !== 'object') return;
    const o = v as { type?: string; features?: unknown[]; geometry?: unknown } & Geometry;
    if (o.type === 'FeatureCollection') for (const f of o.features ?? []) visit(f);
    else if (o.type === 'Feature') visit(o.geometry);
    else if (o.type === 'GeometryCollection') for (const g of o.geometries ?? []) visit(g);
    else if (o.type === 'Polygon') {
      const ring = (o.coordinates as number[][][] | undefined)?.[0];
      if (ring) out.push(openRing(ring.map((p) => [Number(p[0]), Number(p[1])] as LngLat)));
    } else if (o.type === 'MultiPolygon')
      for (const poly of (o.coordinates as number[][][][] | undefined) ?? [])
        if (poly[0]) out.push(openRing(poly[0].map((p) => [Number(p[0]), Number(p[1])] as LngLat)));
  };
  visit(value);
  return out.filter((r) => r.length >= 3 && r.every((p) => Number.isFinite(p[0]) && Number.isFinite(p[1])));
}

/** The polygons of an uploaded file: KML by its content (an XML `<kml>`), else GeoJSON. */
export async function polygonsOfFile(file: File): Promise<LngLat[][]> {
  const text = await file.text();
  if (/^\s*(<\?xml[^>]*>\s*)?<kml[\s>]/i.test(text) || file.name.toLowerCase().endsWith('.kml')) {
    const { kml } = await import('@tmcw/togeojson');
    const doc = new DOMParser().parseFromString(text, 'text/xml');
    if (doc.getElementsByTagName('parsererror').length) throw new Error('not xml');
    return polygonsOfGeoJson(kml(doc));
  }
  return polygonsOfGeoJson(JSON.parse(text));
}
