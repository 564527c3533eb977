/**
 * Colour arithmetic for accessible theming. The chosen primary colour (default #409EFF) is too light for
 * white text on it, or for text on white (2.9:1): text and solid fills use a darker shade of the same
 * hue that reaches WCAG AA (4.5:1); borders, tints and icons keep the chosen colour.
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

/** The colour, darkened in small steps until white text on it (and it on white) reaches `min`. */
export function readableOnWhite(hex: string, min = 4.5): string {
  let colour = toHex(parseHex(hex));
  for (let step = 1; step <= 40 && contrast(colour, '#FFFFFF') < min; step += 1) {
    colour = mix(hex, '#000000', step * 0.025);
  }
  return colour;
}
