import { describe, expect, it } from 'vitest';
import { fromMap, type LngLat, openRing, polygonsOfGeoJson, toMap } from './geo';

describe('the plot map’s coordinates', () => {
  const p: LngLat = [112.9, 28.2];

  it('draws WGS-84 as it is on WGS-84 tiles, and moves it on GCJ-02 and BD-09 tiles', () => {
    expect(toMap(p, 'wgs84')).toEqual(p);
    const gcj = toMap(p, 'gcj02');
    // in Changsha the offset is a few hundred metres: thousandths of a degree
    expect(Math.abs(gcj[0] - p[0])).toBeGreaterThan(0.001);
    expect(Math.abs(gcj[0] - p[0])).toBeLessThan(0.01);
    const bd = toMap(p, 'bd09');
    expect(Math.abs(bd[0] - gcj[0])).toBeGreaterThan(0.001);
  });

  it('brings what is drawn back to WGS-84 (to about 10 cm), as stored', () => {
    for (const crs of ['wgs84', 'gcj02', 'bd09'] as const) {
      const back = fromMap(toMap(p, crs), crs);
      expect(Math.abs(back[0] - p[0])).toBeLessThan(2e-6);
      expect(Math.abs(back[1] - p[1])).toBeLessThan(2e-6);
    }
  });

  it('stores a ring open', () => {
    expect(
      openRing([
        [1, 1],
        [2, 1],
        [2, 2],
        [1, 1],
      ]),
    ).toEqual([
      [1, 1],
      [2, 1],
      [2, 2],
    ]);
  });
});

describe('GeoJSON import', () => {
  const ring = [
    [112.9, 28.2],
    [112.901, 28.2],
    [112.901, 28.201],
    [112.9, 28.2],
  ];

  it('finds the outer ring of every polygon in a collection, a feature, a multipolygon', () => {
    const found = polygonsOfGeoJson({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring, ring] } },
        { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [1, 2] } },
        {
          type: 'Feature',
          properties: {},
          geometry: { type: 'MultiPolygon', coordinates: [[ring], [ring]] },
        },
      ],
    });
    expect(found).toHaveLength(3);
    expect(found[0]).toEqual(ring.slice(0, 3));
  });

  it('finds nothing in what holds no polygon', () => {
    expect(polygonsOfGeoJson({ type: 'LineString', coordinates: ring })).toEqual([]);
    expect(polygonsOfGeoJson(null)).toEqual([]);
    expect(polygonsOfGeoJson({ type: 'Polygon', coordinates: [[[1, 2]]] })).toEqual([]);
  });
});
