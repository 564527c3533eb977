import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  BadImage,
  cleanArticleHtml,
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
