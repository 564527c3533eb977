/**
 * Colour arithmetic for accessible theming. The chosen primary colour is drawn as chosen wherever the
 * colour itself is what is drawn (fills, selected backgrounds, borders, the swatch): what is written on
 * such a fill takes white or a dark ink, whichever reaches WCAG AA (4.5:1) — #409EFF gets the ink (white on
 * it is 2.9:1). Text written *in* the primary colour (links, a selected tab's label) is text, not the
 * colour drawn: it takes the nearest shade of the same hue that reaches 4.5:1 on its background.
 */
type Rgb = [number, number, number];

export function parseHex(hex: string): Rgb {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h.slice(0, 6);
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

export function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b]
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`.toUpperCase();
}

/** Relative luminance (WCAG 2). */
export function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** `hex` mixed with `other` by `amount` (0 = hex, 1 = other). */
export function mix(hex: string, other: string, amount: number): string {
  const a = parseHex(hex);
  const b = parseHex(other);
  return toHex(a.map((v, i) => v + (b[i] - v) * amount) as Rgb);
}

/** The dark ink written on light fills (the chosen colour when white on it would not reach AA). */
export const INK = '#1F1F1F';

/**
 * The text colour on a fill of `hex`: white where white reaches `min` (WCAG AA: 4.5:1), else the dark
 * ink. The fill itself stays the chosen colour.
 */
export function inkOn(hex: string, min = 4.5): string {
  if (contrast(hex, '#FFFFFF') >= min) return '#FFFFFF';
  return contrast(hex, INK) >= min ? INK : '#000000';
}

/**
 * `hex` as text on every one of `backgrounds`: itself where it reaches `min` on each, else mixed in small
 * steps towards black (light backgrounds) or white (dark ones) until it does.
 */
export function readableOn(hex: string, backgrounds: readonly string[], min = 4.5): string {
  const lightest = backgrounds.reduce((a, b) => (luminance(b) > luminance(a) ? b : a));
  const darkest = backgrounds.reduce((a, b) => (luminance(b) < luminance(a) ? b : a));
  const light = contrast(lightest, '#000000') >= contrast(darkest, '#FFFFFF');
  const [towards, against] = light ? ['#000000', darkest] : ['#FFFFFF', lightest];
  let colour = toHex(parseHex(hex));
  for (let step = 1; step <= 40 && contrast(colour, against) < min; step += 1) {
    colour = mix(hex, towards, step * 0.025);
  }
  return colour;
}

/** The colour, darkened in small steps until it reaches `min` as text on white. */
export function readableOnWhite(hex: string, min = 4.5): string {
  return readableOn(hex, ['#FFFFFF'], min);
}
