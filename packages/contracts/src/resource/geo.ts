import turfArea from '@turf/area';

/**
 * The area of a polygon field (`polygon` kind: [longitude, latitude] corners in WGS-84, a JSON text or the
 * array), on the sphere as @turf/area measures it. Its own module, not part of `core`: /login never loads
 * it; the plot form, the server and every polygon's view read it.
 */

/** 1 亩 = 10 000 / 15 m² */
export const SQUARE_METRES_PER_MU = 10_000 / 15;

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
