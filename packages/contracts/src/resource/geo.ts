import turfArea from '@turf/area';
import turfLength from '@turf/length';

/**
 * The area of a polygon field (`polygon` kind: [longitude, latitude] corners in WGS-84, a JSON text or the
 * array), on the sphere as @turf/area measures it. Its own module, not part of `core`: /login never loads
 * it; the plot form, the server and every polygon's view read it.
 */

/** 1 亩 = 10 000 / 15 m² */
export const SQUARE_METRES_PER_MU = 10_000 / 15;

/** A polygon's or a line's points as stored (JSON text or the array); null unless ≥ `least` [lng, lat] numbers. */
function pointsOf(value: unknown, least: number): [number, number][] | null {
  let points: unknown = value;
  if (typeof value === 'string') {
    try {
      points = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (
    !Array.isArray(points) ||
    points.length < least ||
    !points.every(
      (p) =>
        Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === 'number' && Number.isFinite(x)),
    )
  )
    return null;
  return points as [number, number][];
}

/**
 * The length in km (two decimals, as a decimal column keeps it: tens of metres) of a line (`polyline` kind: [longitude, latitude] points in
 * WGS-84, in order), along the great circles between its points as @turf/length measures it; null when it
 * is not one (fewer than 2 points). A route's form shows it while the line is drawn; the server stores it.
 */
export function lineKilometres(line: unknown): number | null {
  const points = pointsOf(line, 2);
  if (!points) return null;
  const km = turfLength(
    { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: points } },
    { units: 'kilometers' },
  );
  return Math.round(km * 100) / 100;
}

/** The area in m² of a polygon; null when it is not one (fewer than 3 corners, not numbers). */
export function polygonSquareMetres(polygon: unknown): number | null {
  let corners: unknown = polygon;
  if (typeof polygon === 'string') {
    try {
      corners = JSON.parse(polygon);
    } catch {
      return null;
    }
  }
  if (
    !Array.isArray(corners) ||
    corners.length < 3 ||
    !corners.every(
      (p) =>
        Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === 'number' && Number.isFinite(x)),
    )
  )
    return null;
  const ring = corners as [number, number][];
  const closed =
    ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1]
      ? ring
      : [...ring, ring[0]];
  return turfArea({ type: 'Polygon', coordinates: [closed] });
}

/**
 * The area in 亩 (two decimals) of a polygon; null when it is not one. The plot form shows it live while the
 * polygon is drawn, and the server stores what it returns.
 */
export function polygonMu(polygon: unknown): number | null {
  const m2 = polygonSquareMetres(polygon);
  return m2 === null ? null : Math.round((m2 / SQUARE_METRES_PER_MU) * 100) / 100;
}
