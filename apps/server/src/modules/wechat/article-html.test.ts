import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { innerAddress } from '../../platform/http/outbound';
import {
  BadImage,
  cleanArticleHtml,
  downloadPicture,
  IMAGE_LIMITS,
  onWechat,
  pictureKind,
  wechatPicture,
} from './article-html';

describe('an article’s HTML as WeChat takes it', () => {
  it('inlines style rules and keeps WeChat’s allow-list only', () => {
    const html = cleanArticleHtml(
      '<style>.a{color:red}</style><p class="a" onmouseover="x()">正文<script>alert(1)</script></p>' +
        '<a href="javascript:alert(1)">a</a><a href="https://example.com/a">b</a>' +
        '<img src="data:image/png;base64,AAAA"><img src="//evil.example/a.png">' +
        '<span style="color:blue;background:url(http://evil.example/x)">c</span><form><input></form>',
    );
    expect(html).toContain('<p style="color:red">正文</p>');
    expect(html).toContain('<a href="https://example.com/a">b</a>');
    expect(html).toContain('<span style="color:blue">c</span>');
    expect(html).not.toMatch(/script|onmouseover|javascript|data:|evil|form|input/);
  });

  it('knows WeChat’s picture hosts', () => {
    expect(onWechat('http://mmbiz.qpic.cn/sz_mmbiz_jpg/a/0')).toBe(true);
    expect(onWechat('https://mmbiz.qpic.cn.evil.example/a')).toBe(false);
    expect(onWechat('not a url')).toBe(false);
  });
});

describe('a picture WeChat’s article images take', () => {
  it('a small png or jpg goes as it is; a webp becomes a jpg', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect(await wechatPicture('a', png)).toEqual({ data: png, ext: 'png' });
    const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .webp()
      .toBuffer();
    expect(pictureKind(webp)).toBe('webp');
    const out = await wechatPicture('a', webp);
    expect(out.ext).toBe('jpg');
    expect(pictureKind(out.data)).toBe('jpg');
  });

  it('a png over 1 MB is made smaller than 1 MB', async () => {
    // noise does not compress: an honest over-1-MB png
    const raw = { width: 900, height: 700, channels: 3 as const };
    const big = await sharp(randomBytes(raw.width * raw.height * 3), { raw })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(IMAGE_LIMITS.uploadBytes);
    const out = await wechatPicture('big.png', big);
    expect(out.data.length).toBeLessThanOrEqual(IMAGE_LIMITS.uploadBytes);
    expect(pictureKind(out.data)).toBe(out.ext);
  }, 30_000);

  it('something that is not a picture is a BadImage naming it', async () => {
    await expect(wechatPicture('http://x/a.png', Buffer.from('<script>'))).rejects.toBeInstanceOf(BadImage);
  });
});

describe('a picture is never downloaded from inside the server’s network (WECHAT_IMAGE_FETCH=public)', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#c00' } })
      .png()
      .toBuffer();
    server = createServer((req, res) => {
      // a public-looking first hop would still be followed to here: a redirect is checked again
      if (req.url === '/hop') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/a.png` });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(png);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('loopback by address or by name, IPv6, IPv4 inside IPv6, private, link-local: refused as such', async () => {
    for (const src of [
      `http://127.0.0.1:${port}/a.png`,
      `http://localhost:${port}/a.png`,
      `http://[::1]:${port}/a.png`,
      `http://[::ffff:127.0.0.1]:${port}/a.png`,
      `http://[::ffff:7f00:1]:${port}/a.png`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/a.png',
      'http://192.168.1.1/a.png',
      'http://0.0.0.0/a.png',
    ]) {
      const refused = await downloadPicture(src).then(
        () => null,
        (e: BadImage) => e,
      );
      expect(refused, src).toBeInstanceOf(BadImage);
      expect(refused?.why.en, src).toContain('inside the server’s own network');
    }
  });

  it('allowed with `any`, redirects included', async () => {
    const got = await downloadPicture(`http://127.0.0.1:${port}/hop`, 'any');
    expect(got.subarray(1, 4).toString()).toBe('PNG');
  });

  it('what is outside the network is judged by its own addresses only', () => {
    for (const a of ['8.8.8.8', '2001:4860:4860::8888', '101.226.1.1', '::ffff:8.8.8.8'])
      expect(innerAddress(a), a).toBe(false);
    for (const a of [
      '127.1.2.3',
      '::1',
      '::ffff:10.1.2.3',
      '::ffff:a01:203',
      'fd00::1',
      'fe80::1',
      '100.64.0.1',
      '172.31.255.255',
      'not-an-ip',
    ])
      expect(innerAddress(a), a).toBe(true);
  });
});
