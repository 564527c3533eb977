import { describe, expect, it } from 'vitest';
import { legendNames } from './legend';

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
