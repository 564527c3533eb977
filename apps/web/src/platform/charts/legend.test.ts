import { describe, expect, it } from 'vitest';
import { laidOut, legendHeight, legendNames, legendRows, textWidth } from './legend';

describe('legendNames', () => {
  it('reads a pie’s slice names when the legend names none', () => {
    const option = {
      legend: { bottom: 0 },
      series: [
        {
          type: 'pie',
          data: [
            { name: 'Masses (non-party)', value: 3 },
            { name: 'CPC member', value: 1 },
          ],
        },
      ],
    };
    expect(legendNames(option)).toEqual(['Masses (non-party)', 'CPC member']);
  });

  it('prefers the legend’s own data, and names bar series by their name', () => {
    expect(legendNames({ legend: { data: ['Male', { name: 'Female' }] }, series: [] })).toEqual([
      'Male',
      'Female',
    ]);
    expect(
      legendNames({
        legend: {},
        series: [
          { type: 'bar', name: 'A' },
          { type: 'bar', name: 'A' },
        ],
      }),
    ).toEqual(['A']);
  });

  it('is empty without a legend', () => {
    expect(legendNames({ series: [{ type: 'bar', name: 'A' }] })).toEqual([]);
  });
});

const EDUCATION = [
  'Illiterate or semi-literate',
  'Primary school',
  'Junior secondary school',
  'Senior secondary school',
  'Technical secondary school',
  'Junior college',
  'Bachelor’s degree',
  'Postgraduate',
];

describe('laidOut', () => {
  it('wraps a long legend onto rows rather than paging or cutting it', () => {
    expect(textWidth('小学')).toBe(24);
    expect(legendRows(['Male', 'Female'], 600)).toBe(1);
    const rows = legendRows(EDUCATION, 400);
    expect(rows).toBeGreaterThan(2);
    // every name fits its row: no row is wider than the chart
    expect(legendRows(EDUCATION, 4000)).toBe(1);
    const pie = {
      legend: { bottom: 0, type: 'scroll' },
      series: [{ type: 'pie', radius: ['35%', '65%'], data: EDUCATION.map((name) => ({ name, value: 1 })) }],
    };
    const out = laidOut(pie, 400, 300) as {
      legend: { type: string; bottom: number };
      series: { center: [string, number]; radius: [number, number] }[];
    };
    expect(out.legend.type).toBe('plain');
    expect(out.legend.bottom).toBe(0);
    // the ring and its outside labels stay above the legend's rows
    const [, cy] = out.series[0].center;
    const [inner, outer] = out.series[0].radius;
    expect(cy + outer).toBeLessThanOrEqual(300 - legendHeight(rows));
    expect(inner).toBeGreaterThan(0);
    expect(inner / outer).toBeCloseTo(35 / 65, 1);
  });

  it('starts the plot below the legend and below a vertical axis’ title', () => {
    const bars = {
      legend: { top: 0, data: ['Male', 'Female'] },
      grid: { left: 60, top: 40 },
      yAxis: { type: 'category', name: 'Age', data: ['0-17'] },
      xAxis: { type: 'value' },
      series: [],
    };
    const out = laidOut(bars, 500, 340) as { legend: { top: number }; grid: { top: number; left: number } };
    expect(out.legend.top).toBe(0);
    // the axis title is drawn 15 px above the plot, 12 px high: it starts below the legend's bottom
    expect(out.grid.top - 15 - 12).toBeGreaterThanOrEqual(legendHeight(1));
    expect(out.grid.left).toBe(60);
    // a legend of several rows pushes the plot further down
    const narrow = laidOut({ ...bars, legend: { data: EDUCATION } }, 500, 340) as { grid: { top: number } };
    expect(narrow.grid.top).toBeGreaterThan(out.grid.top);
  });

  it('pages a legend that would take more than 40 % of the chart, keeping the plot', () => {
    const many = Array.from({ length: 60 }, (_, i) => `Pest number ${i}`);
    const out = laidOut(
      { legend: {}, xAxis: {}, yAxis: {}, series: many.map((name) => ({ type: 'bar', name })) },
      400,
      300,
    ) as {
      legend: { type: string };
      grid: { top: number };
    };
    expect(out.legend.type).toBe('scroll');
    expect(out.grid.top).toBeLessThan(60);
  });

  it('leaves a chart without a legend as it is', () => {
    const plain = { xAxis: {}, yAxis: {}, series: [{ type: 'bar', data: [1] }] };
    expect(laidOut(plain, 500, 300)).toBe(plain);
  });
});
