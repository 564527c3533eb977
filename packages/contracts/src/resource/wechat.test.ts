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
import {
  utf8Bytes,
  WX_MATCH,
  WX_REPLY_KIND,
  wxKeywordClash,
  wxMenuClean,
  wxMenuErrorButton,
  wxMenuProblem,
  wxReplyFor,
} from './wechat-rules';

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
  it('holds banners and QR codes, then the public account’s screens, under /wechat', () => {
    expect(WECHAT_AREA.resources.map((r) => [r.key, r.route, r.service])).toEqual([
      ['carousel', '/wechat/carousel', 'dfem-hope-manage'],
      ['qrcode', '/wechat/qrcode', 'dfem-hope-manage'],
      ['wxAccount', '/wechat/account', 'dfem-hope-wx'],
      ['wxMenu', '/wechat/menu', 'dfem-hope-wx'],
      ['wxAutoReply', '/wechat/autoReply', 'dfem-hope-wx'],
      ['wxUser', '/wechat/user', 'dfem-hope-wx'],
      ['wxMsg', '/wechat/msg', 'dfem-hope-wx'],
      ['wxMaterial', '/wechat/material', 'dfem-hope-wx'],
      ['wxDraft', '/wechat/draft', 'dfem-hope-wx'],
      ['freePublish', '/wechat/publish', 'dfem-hope-wx'],
      ['wxArticle', '/wechat/article', 'dfem-hope-wx'],
      ['wxComment', '/wechat/comment', 'dfem-hope-wx'],
    ]);
    expect(WECHAT_AREA.buttons?.carousel?.map((b) => b.code)).toEqual(['top']);
    // set-to-top has its own button: no form writes it
    const top = carouselResource.fields.find((f) => f.name === 'isTop')!;
    expect([top.readOnly, top.form]).toEqual([true, false]);
  });
});

describe('the custom menu’s rules (WeChat’s limits, in UTF-8 bytes)', () => {
  const leaf = (over: Record<string, unknown> = {}) => ({ type: 'click', name: '按钮', key: 'k', ...over });

  it('counts bytes: a Chinese character is 3', () => {
    expect(utf8Bytes('村'.repeat(21))).toBe(63);
    expect(utf8Bytes('abc')).toBe(3);
  });

  it('at most 3 top-level buttons with at most 5 sub-buttons', () => {
    expect(wxMenuProblem({ button: [leaf(), leaf(), leaf()] })).toBeNull();
    expect(wxMenuProblem({ button: [leaf(), leaf(), leaf(), leaf()] })?.path).toBe('button');
    const subs = (n: number) => ({ name: '服务', sub_button: Array.from({ length: n }, () => leaf()) });
    expect(wxMenuProblem({ button: [subs(5)] })).toBeNull();
    expect(wxMenuProblem({ button: [subs(6)] })?.path).toBe('button[0].sub_button');
    expect(wxMenuProblem({ button: [] })?.path).toBe('button');
    expect(wxMenuProblem('x')?.path).toBe('button');
  });

  it('names ≤ 16 bytes top-level and ≤ 60 below; key ≤ 128, url ≤ 1024', () => {
    expect(wxMenuProblem({ button: [leaf({ name: '村'.repeat(5) })] })).toBeNull();
    expect(wxMenuProblem({ button: [leaf({ name: '村'.repeat(6) })] })?.path).toBe('button[0].name');
    const under = (name: string) => ({ button: [{ name: '服务', sub_button: [leaf({ name })] }] });
    expect(wxMenuProblem(under('村'.repeat(20)))).toBeNull();
    expect(wxMenuProblem(under('村'.repeat(21)))?.message.zh).toBe(
      '第1个菜单的第1个子菜单:菜单名称不能超过 60 个字节(一个汉字 3 个字节,当前 63 个字节)',
    );
    expect(wxMenuProblem({ button: [leaf({ key: 'k'.repeat(128) })] })).toBeNull();
    expect(wxMenuProblem({ button: [leaf({ key: 'k'.repeat(129) })] })?.path).toBe('button[0].key');
    const url = (n: number) => `https://a.example.com/${'x'.repeat(n - 22)}`;
    expect(wxMenuProblem({ button: [{ type: 'view', name: 'a', url: url(1024) }] })).toBeNull();
    expect(wxMenuProblem({ button: [{ type: 'view', name: 'a', url: url(1025) }] })?.path).toBe(
      'button[0].url',
    );
  });

  it('each of the ten types has what it needs', () => {
    const ok = [
      leaf(),
      { type: 'view', name: 'a', url: 'https://a.example.com' },
      {
        type: 'miniprogram',
        name: 'a',
        url: 'https://a.example.com',
        appid: 'wx286b93c14bbf93aa',
        pagepath: 'pages/index',
      },
      { type: 'article_view_limited', name: 'a', article_id: 'abc_DEF-1' },
      ...[
        'scancode_push',
        'scancode_waitmsg',
        'pic_sysphoto',
        'pic_photo_or_album',
        'pic_weixin',
        'location_select',
      ].map((type) => leaf({ type })),
    ];
    for (const b of ok) expect(wxMenuProblem({ button: [b] }), JSON.stringify(b)).toBeNull();
    expect(
      wxMenuProblem({
        button: [{ type: 'miniprogram', name: 'a', url: 'https://a.example.com', pagepath: 'p' }],
      })?.path,
    ).toBe('button[0].appid');
    expect(wxMenuProblem({ button: [{ name: 'a' }] })?.path).toBe('button[0].type');
  });

  it('keeps each button’s own keys in their order; a parent keeps its name and sub-buttons', () => {
    expect(
      JSON.stringify(
        wxMenuClean({
          button: [
            { name: 'p', type: 'click', key: 'x', sub_button: [{ key: 'k', name: 'n', type: 'click' }] },
          ],
        }),
      ),
    ).toBe('{"button":[{"name":"p","sub_button":[{"key":"k","name":"n","type":"click"}]}]}');
  });

  it('points WeChat’s 40018 at the name nearest its limit', () => {
    const menu = {
      button: [leaf({ name: 'a' }), { name: 'b', sub_button: [leaf({ name: '村'.repeat(19) })] }],
    };
    expect(wxMenuErrorButton(menu, 40018)).toBe('button[1].sub_button[0].name');
    expect(wxMenuErrorButton(menu, 45009)).toBeNull();
  });
});

describe('auto-replies', () => {
  const r = (id: string, kind: string, keywords = '', matchMode: string = WX_MATCH.full, enabled = 1) => ({
    id,
    kind,
    keywords,
    matchMode,
    enabled,
  });
  const rules = [
    r('1', WX_REPLY_KIND.subscribe),
    r('2', WX_REPLY_KIND.keyword, '天气,气象', WX_MATCH.full),
    r('3', WX_REPLY_KIND.keyword, '办事 报修', WX_MATCH.partial),
    r('4', WX_REPLY_KIND.default),
    r('5', WX_REPLY_KIND.keyword, '你好', WX_MATCH.full, 0),
  ];

  it('subscribe, full match, partial match, then the default; disabled rules never answer', () => {
    expect(wxReplyFor(rules, { event: 'subscribe' })?.id).toBe('1');
    expect(wxReplyFor(rules, { text: '天气' })?.id).toBe('2');
    expect(wxReplyFor(rules, { text: '今天天气' })?.id).toBe('4');
    expect(wxReplyFor(rules, { text: '我要报修水管' })?.id).toBe('3');
    expect(wxReplyFor(rules, { text: '你好' })?.id).toBe('4');
    expect(wxReplyFor(rules.slice(1, 3), { text: '你好' })).toBeUndefined();
  });

  it('two enabled keyword rules may not claim one keyword (without case)', () => {
    expect(wxKeywordClash(r('9', WX_REPLY_KIND.keyword, '雨,报修'), rules)).toBe('报修');
    expect(wxKeywordClash(r('9', WX_REPLY_KIND.keyword, '你好'), rules)).toBeNull();
    expect(wxKeywordClash(r('9', WX_REPLY_KIND.keyword, '天气', WX_MATCH.full, 0), rules)).toBeNull();
    expect(wxKeywordClash(r('2', WX_REPLY_KIND.keyword, '天气'), rules)).toBeNull();
  });
});
