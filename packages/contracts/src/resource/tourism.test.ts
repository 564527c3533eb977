import { describe, expect, it } from 'vitest';
import { lineKilometres, polygonSquareMetres } from './geo';
import { slotName, slotRemaining, TOURISM_AREA, tourismRouteResource } from './tourism';
import { checkField } from './validate';

describe('a route’s line and its length', () => {
  const points = tourismRouteResource.fields.find((f) => f.name === 'points')!;

  it('lineKilometres measures along the points, two decimals; null for no line', () => {
    // one hundredth of a degree of latitude is about 1.11 km
    expect(
      lineKilometres([
        [112.9, 28.2],
        [112.9, 28.21],
      ]),
    ).toBe(1.11);
    expect(lineKilometres('[[112.9,28.2],[112.9,28.21],[112.9,28.22]]')).toBe(2.22);
    // the order matters: there and back is twice the way
    expect(
      lineKilometres([
        [112.9, 28.2],
        [112.9, 28.21],
        [112.9, 28.2],
      ]),
    ).toBe(2.22);
    expect(lineKilometres([[112.9, 28.2]])).toBeNull();
    expect(lineKilometres('not json')).toBeNull();
    expect(
      lineKilometres([
        [112.9, '28.2'],
        [1, 2],
      ]),
    ).toBeNull();
    // a line is no area
    expect(
      polygonSquareMetres([
        [112.9, 28.2],
        [112.9, 28.21],
      ]),
    ).toBeNull();
  });

  it('the polyline kind takes 2 points or more, refuses one point, bad JSON and points off the globe', () => {
    expect(checkField(points, '[[112.9,28.2],[112.91,28.2]]')).toBeNull();
    for (const bad of ['[[112.9,28.2]]', '[[112.9,28.2', '[[181,28.2],[112.9,28.2]]', '{"a":1}', '[]'])
      expect(checkField(points, bad), bad).not.toBeNull();
  });
});

describe('slots', () => {
  it('say what is left, never below 0, and are named by place, day and clock times', () => {
    expect(slotRemaining({ capacity: 9, booked: 5 })).toBe(4);
    expect(slotRemaining({ capacity: 3, booked: 5 })).toBe(0);
    expect(slotName('竹溪民宿', '2026-12-01', '09:00', '11:00')).toBe('竹溪民宿 2026-12-01 09:00-11:00');
  });

  it('the area lists its four screens and the bookings’ buttons', () => {
    expect(TOURISM_AREA.resources.map((r) => r.key)).toEqual([
      'tourismPresets',
      'tourismRoute',
      'tourismSlot',
      'tourismBooking',
    ]);
    expect(TOURISM_AREA.resources[0].path).toBe('tourismPresets');
    expect(TOURISM_AREA.resources[0].service).toBe('dfem-hope-manage');
    expect(TOURISM_AREA.buttons?.tourismBooking?.map((b) => b.code)).toEqual(['verify', 'cancel']);
  });
});
