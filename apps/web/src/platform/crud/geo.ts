/** Pure helpers of the map kinds (no React): a point's and a polygon's wire text, and a polygon's sketch. */

export type LngLat = [lng: number, lat: number];

const isLngLat = (p: unknown): p is LngLat =>
  Array.isArray(p) &&
  p.length === 2 &&
  typeof p[0] === 'number' &&
  typeof p[1] === 'number' &&
  Number.isFinite(p[0]) &&
  Number.isFinite(p[1]);

/** `longitude,latitude` → the two numbers; undefined when it is not two numbers. */
export function parsePoint(v: unknown): LngLat | undefined {
  const parts = String(v).replace(/\s/g, '').split(',');
  if (parts.length !== 2 || parts.some((x) => x === '')) return undefined;
  const p = parts.map(Number);
  return isLngLat(p) ? p : undefined;
}

/** A polygon's JSON text (or array) → its corners; undefined when it is not a list of [lng, lat] pairs. */
export function parsePolygon(v: unknown): LngLat[] | undefined {
  let value = v;
  if (typeof v === 'string') {
    try {
      value = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  return Array.isArray(value) && value.every(isLngLat) ? (value as LngLat[]) : undefined;
}

/** A polygon's JSON text for editing: one corner a line. Text that is not a polygon is left as it is. */
export function polygonText(v: unknown): string {
  const corners = parsePolygon(v);
  if (!corners) return typeof v === 'string' ? v : JSON.stringify(v);
  return `[\n${corners.map(([x, y]) => `  [${x}, ${y}]`).join(',\n')}\n]`;
}

/**
 * The corners of a polygon scaled into a `width` × `height` box less `pad` on each side, keeping the shape's
 * proportions (a degree of longitude is drawn as wide as a degree of latitude: a sketch, not a map) and
 * centring it; north is up. As SVG points (`x,y x,y …`, two decimals).
 */
export function sketchPolygon(corners: readonly LngLat[], width: number, height: number, pad = 4): string {
  if (!corners.length) return '';
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const spanX = maxX - minX;
  const spanY = maxY - minY;
  const innerW = Math.max(width - 2 * pad, 0);
  const innerH = Math.max(height - 2 * pad, 0);
  // a shape with no width or height (all corners on a line) is stretched along the other side only
  const scale = Math.min(spanX > 0 ? innerW / spanX : Infinity, spanY > 0 ? innerH / spanY : Infinity);
  const k = Number.isFinite(scale) ? scale : 0;
  const offX = (width - spanX * k) / 2;
  const offY = (height - spanY * k) / 2;
  const r = (n: number) => Math.round(n * 100) / 100;
  return corners.map(([x, y]) => `${r(offX + (x - minX) * k)},${r(offY + (maxY - y) * k)}`).join(' ');
}
