import { crc32, deflateSync } from 'node:zlib';

/**
 * The demo banners' pictures (seed step wechat-v1): a 750 × 300 PNG — the mini-program's banner shape — of
 * a sky over green hills in the banner's own colours, drawn and encoded here so the seed needs no file
 * shipped with the product and no image library.
 */

type Rgb = readonly [number, number, number];

/** A PNG of RGB pixels (`rgb` row by row): signature, IHDR, one deflated IDAT, IEND. */
function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + body.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, 4 + body.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, adaptive filtering (each row: none), no interlace
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  Math.round(a[0] + (b[0] - a[0]) * t),
  Math.round(a[1] + (b[1] - a[1]) * t),
  Math.round(a[2] + (b[2] - a[2]) * t),
];

/** A banner picture: a sky from `top` to `horizon`, a sun, and two rows of hills in `hills`. */
export function bannerPng(top: Rgb, horizon: Rgb, hills: Rgb, width = 750, height = 300): Buffer {
  const rgb = new Uint8Array(width * height * 3);
  const sun = { x: width * 0.78, y: height * 0.3, r: height * 0.11 };
  const far = mix(hills, horizon, 0.45);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let c = mix(top, horizon, y / height);
      if ((x - sun.x) ** 2 + (y - sun.y) ** 2 <= sun.r ** 2) c = [255, 236, 170];
      const back = height * (0.58 + 0.08 * Math.sin(x / 70 + 1.3));
      const front = height * (0.72 + 0.07 * Math.sin(x / 110 + 4));
      if (y >= back) c = far;
      if (y >= front) c = mix(hills, [20, 60, 30], (y - front) / (height - front + 1) / 2);
      rgb.set(c, (y * width + x) * 3);
    }
  return encodePng(width, height, rgb);
}
