import type { IncomingMessage } from 'node:http';
import { L, type Text2 } from '@smart/contracts';
import juice from 'juice';
import sanitizeHtml from 'sanitize-html';
import sharp from 'sharp';
import { InnerAddressError, type OutboundHosts, outboundGet } from '../../platform/http/outbound';

/**
 * An article's HTML as WeChat takes it (草稿 draft/add): its `<style>` rules inlined (juice: WeChat drops style
 * blocks and keeps inline styles), then cleaned to WeChat's allow-list (sanitize-html: no script, no event
 * handler, no `javascript:`, no `<style>`/`<iframe>`/`<form>`, styles without `url(` or `expression(`), and
 * every picture that is not already WeChat's moved there: downloaded (http(s) only, at most 10 MB, 10 s, the
 * content checked by its first bytes), made a jpg or png of at most 1 MB (sharp) when it is another kind or
 * larger, and uploaded through `media/uploadimg`; its `src` becomes the URL WeChat answered.
 */

const STYLE_VALUE = [/^(?!.*(?:url|expression|javascript)\s*[:(])[^;<>"]*$/i];
const STYLE_PROPS = [
  'color',
  'background-color',
  'font-size',
  'font-weight',
  'font-style',
  'font-family',
  'text-align',
  'text-decoration',
  'text-indent',
  'line-height',
  'letter-spacing',
  'margin',
  'margin-top',
  'margin-bottom',
  'margin-left',
  'margin-right',
  'padding',
  'padding-top',
  'padding-bottom',
  'padding-left',
  'padding-right',
  'border',
  'border-radius',
  'width',
  'max-width',
  'height',
  'vertical-align',
  'display',
  'box-sizing',
];

export const WECHAT_HTML: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'span',
    'section',
    'hr',
    'pre',
    'code',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    '*': ['style'],
    a: ['href', 'title'],
    img: ['src', 'alt', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
  },
  allowedStyles: { '*': Object.fromEntries(STYLE_PROPS.map((p) => [p, STYLE_VALUE])) },
  allowedSchemes: ['http', 'https'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/** WeChat's own picture hosts: an image there is not moved again. */
const WECHAT_HOSTS = /^(?:mmbiz\.qpic\.cn|mmbiz\.qlogo\.cn|mmecoa\.qpic\.cn)$/i;
export const onWechat = (src: string) => {
  try {
    return WECHAT_HOSTS.test(new URL(src).hostname);
  } catch {
    return false;
  }
};

export const IMAGE_LIMITS = { downloadBytes: 10 * 1024 * 1024, uploadBytes: 1024 * 1024, timeoutMs: 10_000 };

/** A picture that cannot be used, named by its address: a 400 for the article it is in. */
export class BadImage extends Error {
  constructor(
    readonly src: string,
    readonly why: Text2,
  ) {
    super(`${src}: ${why.en}`);
  }
}

/** the picture kind its first bytes show, of those a browser shows; null for anything else */
export function pictureKind(buf: Buffer): 'png' | 'jpg' | 'gif' | 'webp' | 'bmp' | null {
  if (buf.length > 8 && buf.readUInt32BE(0) === 0x89504e47 && buf.readUInt32BE(4) === 0x0d0a1a0a)
    return 'png';
  if (buf.length > 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpg';
  const head = buf.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'webp';
  if (head.startsWith('BM') && buf.length > 26) return 'bmp';
  return null;
}

const why = {
  scheme: L('只能引用 http 或 https 图片', 'only http or https pictures can be used'),
  fetch: L('无法下载', 'cannot be downloaded'),
  inner: L(
    '指向服务器所在的内部网络,不能下载',
    'points inside the server’s own network and cannot be downloaded',
  ),
  status: (n: number) => L(`下载失败(HTTP ${n})`, `download failed (HTTP ${n})`),
  big: L('超过 10MB', 'is larger than 10 MB'),
  kind: L('不是可识别的图片(支持 jpg、png、gif、webp、bmp)', 'is not a picture (jpg, png, gif, webp, bmp)'),
  convert: L('无法转换为 jpg/png', 'cannot be converted to jpg or png'),
};

/**
 * Downloads a picture: http(s) only, redirects followed (each checked again), capped in size and time; with
 * `hosts: 'public'` (WECHAT_IMAGE_FETCH) never from the server's own network (platform/http/outbound.ts).
 */
export async function downloadPicture(src: string, hosts: OutboundHosts = 'public'): Promise<Buffer> {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    throw new BadImage(src, why.scheme);
  }
  const signal = AbortSignal.timeout(IMAGE_LIMITS.timeoutMs);
  for (let hop = 0; hop < 4; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadImage(src, why.scheme);
    let res: IncomingMessage;
    try {
      res = await outboundGet(url, hosts, signal);
    } catch (e) {
      throw new BadImage(src, e instanceof InnerAddressError ? why.inner : why.fetch);
    }
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      url = new URL(res.headers.location, url);
      res.resume();
      continue;
    }
    if (status < 200 || status >= 300) {
      res.resume();
      throw new BadImage(src, why.status(status));
    }
    if (Number(res.headers['content-length'] ?? 0) > IMAGE_LIMITS.downloadBytes) {
      res.destroy();
      throw new BadImage(src, why.big);
    }
    const parts: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res) {
        size += (chunk as Buffer).length;
        if (size > IMAGE_LIMITS.downloadBytes) throw new BadImage(src, why.big);
        parts.push(chunk as Buffer);
      }
    } catch (e) {
      res.destroy();
      if (e instanceof BadImage) throw e;
      throw new BadImage(src, why.fetch);
    }
    return Buffer.concat(parts);
  }
  throw new BadImage(src, why.fetch);
}

/**
 * A picture WeChat's article images take: a jpg or png of at most 1 MB as it is; anything else (gif, webp,
 * bmp, or larger) made a jpg (a png when it has transparency), smaller steps until it fits.
 */
export async function wechatPicture(src: string, buf: Buffer): Promise<{ data: Buffer; ext: 'jpg' | 'png' }> {
  const kind = pictureKind(buf);
  if (!kind) throw new BadImage(src, why.kind);
  if ((kind === 'jpg' || kind === 'png') && buf.length <= IMAGE_LIMITS.uploadBytes)
    return { data: buf, ext: kind };
  try {
    const meta = await sharp(buf, { animated: false }).metadata();
    const alpha = meta.hasAlpha === true;
    for (const [width, quality] of [
      [undefined, 85],
      [1600, 80],
      [1080, 70],
      [720, 60],
    ] as const) {
      let img = sharp(buf, { animated: false }).rotate();
      if (width && (meta.width ?? 0) > width) img = img.resize({ width });
      const data = alpha
        ? await img.png({ compressionLevel: 9, palette: true, quality }).toBuffer()
        : await img.flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: true }).toBuffer();
      if (data.length <= IMAGE_LIMITS.uploadBytes) return { data, ext: alpha ? 'png' : 'jpg' };
    }
  } catch {
    throw new BadImage(src, why.convert);
  }
  throw new BadImage(src, L('压缩后仍超过 1MB', 'is still larger than 1 MB once compressed'));
}

const IMG_SRC = /(<img\b[^>]*?\ssrc=")([^"]*)(")/gi;
const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
const encode = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The HTML inlined and cleaned (no pictures moved yet). */
export function cleanArticleHtml(html: string): string {
  let inlined: string;
  try {
    inlined = juice(html, { removeStyleTags: true, preserveImportant: false, applyWidthAttributes: false });
  } catch {
    inlined = html;
  }
  return sanitizeHtml(inlined, WECHAT_HTML);
}

/**
 * The article's HTML ready for WeChat: cleaned, and each picture not on WeChat uploaded through `upload`
 * (once per address) with its `src` replaced by WeChat's URL. A picture that cannot be used is a BadImage.
 */
export async function wechatArticleHtml(
  html: string,
  upload: (data: Buffer, ext: 'jpg' | 'png') => Promise<string>,
  hosts: OutboundHosts = 'public',
): Promise<string> {
  const clean = cleanArticleHtml(html);
  const moved = new Map<string, string>();
  for (const m of clean.matchAll(IMG_SRC)) {
    const src = decode(m[2]);
    if (onWechat(src) || moved.has(src)) continue;
    const picture = await wechatPicture(src, await downloadPicture(src, hosts));
    moved.set(src, await upload(picture.data, picture.ext));
  }
  return clean.replace(IMG_SRC, (_all, a: string, src: string, b: string) => {
    const to = moved.get(decode(src));
    return to ? `${a}${encode(to)}${b}` : `${a}${src}${b}`;
  });
}
