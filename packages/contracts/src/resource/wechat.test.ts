import { describe, expect, it } from 'vitest';
import { checkField, checkRecord } from './validate';
import {
  CAROUSEL_LINK,
  CAROUSEL_MESSAGES,
  carouselActive,
  carouselLinkProblem,
  carouselResource,
  WECHAT_AREA,
} from './wechat';

const target = carouselResource.fields.find((f) => f.name === 'linkTarget')!;

describe('a banner’s link target', () => {
  it('takes an http(s) address, an id or a mini-program path', () => {
    for (const v of [
      'https://www.example.com/a?b=1',
      'http://example.com',
      '12',
      '/pages/article/detail?id=12',
    ])
      expect(checkField(target, v), v).toBeNull();
  });

  it('refuses another scheme, another host’s //…, spaces and quotes', () => {
    for (const v of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,x',
      '//evil.example/x',
      'a b',
      '"x"',
    ])
      expect(checkField(target, v), v).not.toBeNull();
  });

  it('is an http(s) address when the kind is 网址', () => {
    expect(carouselLinkProblem(CAROUSEL_LINK.web, '/pages/index')).toEqual(CAROUSEL_MESSAGES.web);
    expect(carouselLinkProblem(CAROUSEL_LINK.web, '12')).toEqual(CAROUSEL_MESSAGES.web);
    expect(carouselLinkProblem(CAROUSEL_LINK.web, 'https://')).toEqual(CAROUSEL_MESSAGES.web);
    expect(carouselLinkProblem(CAROUSEL_LINK.web, 'https://www.example.com')).toBeNull();
    expect(carouselLinkProblem(CAROUSEL_LINK.article, '12')).toBeNull();
    expect(carouselLinkProblem(CAROUSEL_LINK.tourism, '/pages/tourism/detail?id=3')).toBeNull();
    expect(carouselLinkProblem(CAROUSEL_LINK.web, '')).toBeNull();
  });

  it('is required once a link kind is chosen', () => {
    const base = { image: '/api/dfem-hope-manage/file/image/x.png', position: '1' };
    expect(checkRecord(carouselResource, { ...base, linkKind: '3', linkTarget: '' })?.field).toBe(
      'linkTarget',
    );
    expect(checkRecord(carouselResource, { ...base, linkKind: '', linkTarget: '' })).toBeNull();
  });
});

describe('carouselActive', () => {
  it('is within the active dates, either end open, and enabled', () => {
    expect(carouselActive({ activePeriod: '2026-01-01,2026-12-31' }, '2026-06-01')).toBe(true);
    expect(carouselActive({ activePeriod: '2026-01-01,2026-12-31' }, '2026-12-31')).toBe(true);
    expect(carouselActive({ activePeriod: '2026-01-01,2026-12-31' }, '2027-01-01')).toBe(false);
    expect(carouselActive({ activePeriod: '2026-01-01,2026-12-31' }, '2025-12-31')).toBe(false);
    expect(carouselActive({ activePeriod: null }, '2025-12-31')).toBe(true);
    expect(carouselActive({ activePeriod: '2026-01-01,2026-12-31', enabled: 0 }, '2026-06-01')).toBe(false);
  });
});

describe('WECHAT_AREA', () => {
  it('holds banners and QR codes under /wechat, with the set-to-top button', () => {
    expect(WECHAT_AREA.resources.map((r) => [r.key, r.route, r.service])).toEqual([
      ['carousel', '/wechat/carousel', 'dfem-hope-manage'],
      ['qrcode', '/wechat/qrcode', 'dfem-hope-manage'],
    ]);
    expect(WECHAT_AREA.buttons?.carousel?.map((b) => b.code)).toEqual(['top']);
    // set-to-top has its own button: no form writes it
    const top = carouselResource.fields.find((f) => f.name === 'isTop')!;
    expect([top.readOnly, top.form]).toEqual([true, false]);
  });
});
