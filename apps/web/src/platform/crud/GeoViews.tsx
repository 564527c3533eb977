/** How the map kinds read: a place as its coordinates, an area as a small sketch of its shape (no map). */
import { useId } from 'react';
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

/**
 * An area's outline scaled to fit `width` × `height` (north up), named by its corner count for screen
 * readers. Small in a table cell, larger in the view dialog.
 */
export function PolygonSketch({
  value,
  width = 200,
  height = 140,
}: {
  value: unknown;
  width?: number;
  height?: number;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const corners = parsePolygon(value);
  if (!corners) return <span>{String(value)}</span>;
  const name = t('crud.polygonCorners', { count: corners.length });
  return (
    <svg
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-labelledby={titleId}
      style={{ display: 'block', background: '#fafafa', border: '1px solid #f0f0f0', borderRadius: 4 }}
    >
      <title id={titleId}>{name}</title>
      <polygon
        points={sketchPolygon(corners, width, height, Math.max(2, Math.round(Math.min(width, height) / 12)))}
        fill="rgba(22, 119, 255, 0.15)"
        stroke="#1677ff"
        strokeWidth={width < 80 ? 1 : 1.5}
        strokeLinejoin="round"
      />
    </svg>
  );
}
