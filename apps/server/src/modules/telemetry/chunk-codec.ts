/**
 * The compact form of one device's metric over one UTC day (`telemetry_chunk.data`), pure and exact:
 * decode(encode(x)) gives back every time and every value bit for bit.
 *
 * Layout: a format byte, then varints. Times are milliseconds from the chunk's start as delta-of-delta
 * zigzag varints (a device reporting every 5 minutes costs one byte a reading). Values:
 * - format 1: every value is a decimal of at most 6 places (what sensors send): the smallest such scale,
 *   then the scaled integers as zigzag varints of their deltas (a slowly moving value costs 1–2 bytes);
 * - format 2: anything else: raw float64, little-endian.
 */

export interface Point {
  at: number;
  value: number;
}

const SCALED = 1;
const FLOAT = 2;
const MAX_SCALE = 6;
/** scaled integers stay below this, so their deltas and zigzags stay exact in a double */
const INT_MAX = 2 ** 50;

class Writer {
  bytes: number[] = [];
  /** an unsigned integer up to 2^53, 7 bits a byte (arithmetic, not bit operators: those stop at 32 bits) */
  uint(x: number) {
    while (x >= 128) {
      this.bytes.push((x % 128) + 128);
      x = Math.floor(x / 128);
    }
    this.bytes.push(x);
  }
  int(x: number) {
    this.uint(x >= 0 ? 2 * x : -2 * x - 1);
  }
}

class Reader {
  pos = 0;
  constructor(private bytes: Uint8Array) {}
  byte() {
    if (this.pos >= this.bytes.length) throw new Error('telemetry chunk: truncated');
    return this.bytes[this.pos++];
  }
  uint() {
    let x = 0;
    let mul = 1;
    for (;;) {
      const b = this.byte();
      x += (b & 127) * mul;
      if (b < 128) return x;
      mul *= 128;
    }
  }
  int() {
    const z = this.uint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }
}

/** The smallest number of decimal places (≤ 6) with which every value comes back exactly, else -1. */
function scaleOf(values: readonly number[]): number {
  let scale = 0;
  for (const v of values) {
    // -0 has no integer of its own: kept as a float
    if (Object.is(v, -0)) return -1;
    while (scale <= MAX_SCALE) {
      const p = 10 ** scale;
      const i = Math.round(v * p);
      // the check is the decoder's own arithmetic, so exact here means exact there
      if (Math.abs(i) < INT_MAX && Object.is(i / p, v)) break;
      scale++;
    }
    if (scale > MAX_SCALE) return -1;
  }
  return scale;
}

/** Points in time order with distinct times, all at or after `start` (ms). */
export function encodeChunk(start: number, points: readonly Point[]): Uint8Array {
  const w = new Writer();
  const scale = scaleOf(points.map((p) => p.value));
  w.bytes.push(scale < 0 ? FLOAT : SCALED);
  w.uint(points.length);
  let prev = start;
  let delta = 0;
  for (const [i, p] of points.entries()) {
    const d = p.at - prev;
    w.int(i === 0 ? d : d - delta);
    delta = d;
    prev = p.at;
  }
  if (scale < 0) {
    const buf = new DataView(new ArrayBuffer(8));
    for (const p of points) {
      buf.setFloat64(0, p.value, true);
      for (let k = 0; k < 8; k++) w.bytes.push(buf.getUint8(k));
    }
  } else {
    w.uint(scale);
    const mul = 10 ** scale;
    let last = 0;
    for (const p of points) {
      const i = Math.round(p.value * mul);
      w.int(i - last);
      last = i;
    }
  }
  return Uint8Array.from(w.bytes);
}

export function decodeChunk(start: number, data: Uint8Array): Point[] {
  const r = new Reader(data);
  const format = r.byte();
  if (format !== SCALED && format !== FLOAT) throw new Error(`telemetry chunk: unknown format ${format}`);
  const n = r.uint();
  const out: Point[] = new Array(n);
  let prev = start;
  let delta = 0;
  for (let i = 0; i < n; i++) {
    const x = r.int();
    delta = i === 0 ? x : delta + x;
    prev += delta;
    out[i] = { at: prev, value: 0 };
  }
  if (format === FLOAT) {
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (let i = 0; i < n; i++) {
      r.pos += 8;
      if (r.pos > data.length) throw new Error('telemetry chunk: truncated');
      out[i].value = view.getFloat64(r.pos - 8, true);
    }
  } else {
    const mul = 10 ** r.uint();
    let last = 0;
    for (let i = 0; i < n; i++) {
      last += r.int();
      out[i].value = last / mul;
    }
  }
  return out;
}

/**
 * Two time-ordered lists as one, in time order, one point per time: `first` wins a tie (the chunk's point
 * was counted in the roll-ups when it arrived; a raw copy of the same time never was).
 */
export function mergePoints(first: readonly Point[], second: readonly Point[]): Point[] {
  const out: Point[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length || j < second.length) {
    const a = first[i];
    const b = second[j];
    if (!b || (a && a.at <= b.at)) {
      out.push(a);
      i++;
      if (b && b.at === a.at) j++;
    } else {
      out.push(b);
      j++;
    }
  }
  return out;
}
