/**
 * How the map kinds read: a place as its coordinates, an area as a small map of its shape (north up, on a
 * faint grid, no tiles: the list and the view never wait for a tile server) with its area — never the JSON.
 */
import { lineKilometres, polygonSquareMetres, SQUARE_METRES_PER_MU } from '@smart/contracts/geo';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { parsePoint, parsePolygon, sketchPolygon } from './geo';

/** A place: 经度 112.938814 · 纬度 28.228209 (the text as it is when it is not two numbers). */
export function PointView({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const p = parsePoint(value);
  if (!p) return <span>{String(value)}</span>;
  return (
    <span>
      {t('crud.longitude')} {p[0]} · {t('crud.latitude')} {p[1]}
    </span>
  );
}

/** The grid's lines across `size`, every `grid` pixels. */
const steps = (size: number, grid: number): number[] =>
  Array.from({ length: Math.floor(size / grid) }, (_, i) => (i + 1) * grid);

/**
 * The frame every sketch is drawn in: `width` × `height`, a faint grid (not in a table cell's small size),
 * named for screen readers by `name`; the shape is `children`.
 */
function SketchFrame({
  width,
  height,
  name,
  children,
}: {
  width: number;
  height: number;
  name: string;
  children: ReactNode;
}) {
  const titleId = useId();
  const grid = Math.max(8, Math.round(Math.min(width, height) / 4));
  return (
    <svg
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-labelledby={titleId}
      style={{ display: 'block', background: '#f6f8f4', border: '1px solid #e5e9e0', borderRadius: 4 }}
    >
      <title id={titleId}>{name}</title>
      {width >= 80 && (
        <g stroke="#e3e8dc" strokeWidth={1} aria-hidden>
          {steps(width, grid).map((x) => (
            <line key={`x${x}`} x1={x} y1={0} x2={x} y2={height} />
          ))}
          {steps(height, grid).map((y) => (
            <line key={`y${y}`} x1={0} y1={y} x2={width} y2={y} />
          ))}
        </g>
      )}
      {children}
    </svg>
  );
}

/** An area as people say it: 12.34 亩 (8,226 m²). */
export function useAreaText(): (value: unknown) => string | undefined {
  const { t } = useTranslation();
  return (value) => {
    const m2 = polygonSquareMetres(value);
    if (m2 === null) return undefined;
    const mu = (m2 / SQUARE_METRES_PER_MU).toFixed(2);
    return t('crud.polygonArea', { mu, m2: Math.round(m2).toLocaleString('en-US') });
  };
}

/** A line's length as people say it: 长度 3.21 公里 (undefined when it is no line). */
export function useLengthText(): (value: unknown) => string | undefined {
  const { t } = useTranslation();
  return (value) => {
    const km = lineKilometres(value);
    return km === null ? undefined : t('crud.lineLength', { km: km.toFixed(2) });
  };
}

/** A line's control (`children`) with its length below it, read to screen readers as it changes. */
export function LineWithLength({ value, children }: { value: unknown; children: ReactNode }) {
  const { t } = useTranslation();
  const length = useLengthText()(value);
  return (
    <div>
      {children}
      <div
        aria-live="polite"
        data-testid="line-length-live"
        style={{ color: length ? undefined : '#737373' }}
      >
        {length ?? t('crud.lineNone')}
      </div>
    </div>
  );
}

/**
 * A line (a route) drawn to fit `width` × `height` (north up) on a faint grid, its start marked, named by its
 * point count and length; the view writes the length under it. Text that is no line is a dash.
 */
export function LineSketch({
  value,
  width = 200,
  height = 140,
  showLength = false,
}: {
  value: unknown;
  width?: number;
  height?: number;
  /** write the length under the sketch (the view dialog) */
  showLength?: boolean;
}) {
  const { t } = useTranslation();
  const lengthText = useLengthText();
  const points = parsePolygon(value);
  const length = lengthText(value);
  if (!points || !length) return <span title={String(value)}>—</span>;
  const name = [t('crud.linePoints', { count: points.length }), length].join(', ');
  const drawn = sketchPolygon(points, width, height, Math.max(3, Math.round(Math.min(width, height) / 12)));
  const [sx, sy] = drawn.split(' ')[0].split(',').map(Number);
  const svg = (
    <SketchFrame width={width} height={height} name={name}>
      <polyline
        points={drawn}
        fill="none"
        stroke="#1677ff"
        strokeWidth={width < 80 ? 1.5 : 2}
        strokeLinejoin="round"
        strokeLinecap="round"
      />
      <circle cx={sx} cy={sy} r={width < 80 ? 2 : 3.5} fill="#389e0d" />
    </SketchFrame>
  );
  if (!showLength) return svg;
  return (
    <div>
      {svg}
      <div data-testid="line-length">{length}</div>
    </div>
  );
}

/**
 * An area's outline scaled to fit `width` × `height` (north up) on a faint grid, named by its corner count
 * and its area for screen readers; the view shows the area under it. Small in a table cell, larger in the
 * view dialog. Text that is no polygon is shown as a dash with the text for a title, never as raw JSON.
 */
export function PolygonSketch({
  value,
  width = 200,
  height = 140,
  showArea = false,
}: {
  value: unknown;
  width?: number;
  height?: number;
  /** write the area under the sketch (the view dialog) */
  showArea?: boolean;
}) {
  const { t } = useTranslation();
  const areaText = useAreaText();
  const corners = parsePolygon(value);
  if (!corners) return <span title={String(value)}>—</span>;
  const area = areaText(value);
  const name = [t('crud.polygonCorners', { count: corners.length }), area].filter(Boolean).join(', ');
  const svg = (
    <SketchFrame width={width} height={height} name={name}>
      <polygon
        points={sketchPolygon(corners, width, height, Math.max(2, Math.round(Math.min(width, height) / 12)))}
        fill="rgba(56, 158, 13, 0.18)"
        stroke="#389e0d"
        strokeWidth={width < 80 ? 1 : 1.5}
        strokeLinejoin="round"
      />
    </SketchFrame>
  );
  if (!showArea || !area) return svg;
  return (
    <div>
      {svg}
      <div data-testid="polygon-area">{area}</div>
    </div>
  );
}
