import { describe, expect, it } from 'vitest';
import { contrast, mix, readableOnWhite } from './colour';

describe('accessible shades of the primary colour', () => {
  it('darkens light colours until white text on them reaches 4.5:1, keeping dark ones', () => {
    expect(contrast('#409EFF', '#FFFFFF')).toBeLessThan(3);
    for (const colour of ['#409EFF', '#1890FF', '#11A983', '#13C2C2', '#F5222D', '#FFFF00']) {
      const readable = readableOnWhite(colour);
      expect(contrast(readable, '#FFFFFF'), colour).toBeGreaterThanOrEqual(4.5);
      expect(contrast(readable, '#FFFFFF'), colour).toBeLessThan(5.2); // no darker than needed
    }
    expect(readableOnWhite('#304156')).toBe('#304156');
    expect(readableOnWhite('#409EFF')).toBe('#3077BF');
    expect(readableOnWhite('#F5222D')).toBe('#E31F2A');
  });

  it('mixes and measures like WCAG', () => {
    expect(mix('#000000', '#FFFFFF', 0.5)).toBe('#808080');
    expect(contrast('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#777777')).toBe(1);
  });
});
