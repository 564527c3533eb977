import { describe, expect, it } from 'vitest';
import { contrast, INK, inkOn, mix, readableOn, readableOnWhite } from './colour';

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

  it('writes white or dark ink on a fill of the chosen colour, whichever reaches 4.5:1', () => {
    expect(inkOn('#409EFF')).toBe(INK); // white on it is 2.9:1
    expect(inkOn('#212121')).toBe('#FFFFFF');
    expect(inkOn('#304156')).toBe('#FFFFFF');
    expect(inkOn('#FFFF00')).toBe(INK);
    for (const colour of [
      '#409EFF',
      '#1890FF',
      '#304156',
      '#212121',
      '#11A983',
      '#13C2C2',
      '#6959CD',
      '#F5222D',
      '#777777',
    ]) {
      expect(contrast(inkOn(colour), colour), colour).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('shades text in the chosen colour until it reads on every background it sits on', () => {
    // on light grounds it darkens, no further than the darkest ground needs
    const onPage = readableOn('#409EFF', ['#FFFFFF', '#F0F2F5']);
    expect(contrast(onPage, '#F0F2F5')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(onPage, '#F0F2F5')).toBeLessThan(5.2);
    // on dark grounds (the dark theme) a dark colour lightens: #212121 on #141414 would be 1.2:1
    const onDark = readableOn('#212121', ['#141414', '#1F1F1F', '#000000']);
    expect(contrast(onDark, '#1F1F1F')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(onDark, '#141414')).toBeGreaterThanOrEqual(4.5);
    // a colour that already reads is kept
    expect(readableOn('#409EFF', ['#141414'])).toBe('#409EFF');
    expect(readableOn('#212121', ['#FFFFFF'])).toBe('#212121');
  });
});
