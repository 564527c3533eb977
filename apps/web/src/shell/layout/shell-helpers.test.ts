import { describe, expect, it } from 'vitest';
import type { Tag } from '../../platform/session/tags';
import { flattenMenu, menuTarget, normalizeMenu, searchMenu } from '../menu';
import { checkGuestForm } from './guestForm';
import { screenOf } from './ui';
import { activeTagValue, tabValue, tagLabel, tagPath } from './useNavMenu';

const tag = (value: string, extra: Partial<Tag> = {}): Tag => ({
  label: value,
  value,
  params: {},
  query: {},
  meta: {},
  group: [],
  ...extra,
});

describe('responsive breakpoints (spec §9)', () => {
  it('maps widths to 3, 2, 1, 0', () => {
    expect([1920, 1200, 1199, 992, 991, 768, 767, 320].map(screenOf)).toEqual([3, 3, 2, 2, 1, 1, 0, 0]);
  });
});

describe('menu entries', () => {
  const entries = flattenMenu(
    normalizeMenu([
      {
        id: '1',
        parentId: '0',
        code: 'a',
        name: 'Params',
        alias: '',
        path: '/system/param',
        source: '',
        sort: 1,
        category: 1,
        action: 0,
        isOpen: 1,
        children: [],
      },
      {
        id: '2',
        parentId: '0',
        code: 'b',
        name: 'Docs',
        alias: '',
        path: 'https://example.org/d',
        source: '',
        sort: 2,
        category: 1,
        action: 0,
        isOpen: 1,
        children: [],
      },
      {
        id: '3',
        parentId: '0',
        code: 'c',
        name: 'Portal',
        alias: '',
        path: 'https://example.org/p',
        source: '',
        sort: 3,
        category: 1,
        action: 0,
        isOpen: 2,
        children: [],
      },
      {
        id: '4',
        parentId: '0',
        code: 'd',
        name: 'param list',
        alias: '',
        path: '/x',
        source: '',
        sort: 4,
        category: 1,
        action: 0,
        isOpen: 1,
        children: [],
      },
    ]),
  );

  it('leads to the page, to /myiframe for an external page, or to a new window when isOpen is 2', () => {
    expect(entries.map(menuTarget)).toEqual([
      { href: '/system/param/index', newWindow: false },
      { href: '/myiframe/urlPath?src=https%3A%2F%2Fexample.org%2Fd&name=Docs', newWindow: false },
      { href: 'https://example.org/p', newWindow: true },
      { href: '/x/index', newWindow: false },
    ]);
  });

  it('searches names by prefix, ignoring case', () => {
    expect(searchMenu(entries, 'PARAM').map((e) => e.name)).toEqual(['Params', 'param list']);
    expect(searchMenu(entries, 'list')).toEqual([]);
    expect(searchMenu(entries, '  ')).toEqual([]);
  });
});

describe('tabs', () => {
  it('takes the value from query src, else the path with its query', () => {
    expect(tabValue('/a/index', '')).toBe('/a/index');
    expect(tabValue('/a/index/', '?x=1')).toBe('/a/index?x=1');
    expect(tabValue('/myiframe/urlPath', '?src=https%3A%2F%2Fe.org&name=E')).toBe('https://e.org');
  });

  it('finds the active tab by value, else by path', () => {
    const tags = [tag('/wel/index'), tag('/a/index?x=1'), tag('https://e.org')];
    expect(activeTagValue(tags, '/a/index', '?x=1')).toBe('/a/index?x=1');
    expect(activeTagValue(tags, '/a/index', '?x=2')).toBe('/a/index?x=1');
    expect(activeTagValue(tags, '/myiframe/urlPath', '?src=https%3A%2F%2Fe.org')).toBe('https://e.org');
    expect(activeTagValue(tags, '/b/index', '')).toBeUndefined();
  });

  it('goes back to where a tab was opened, external pages through /myiframe', () => {
    expect(tagPath(tag('/wel/index'))).toBe('/wel/index');
    expect(tagPath(tag('/a/index?x=1', { query: { x: '1' } }))).toBe('/a/index?x=1');
    expect(tagPath(tag('https://e.org', { query: { src: 'https://e.org', name: 'E' } }))).toBe(
      '/myiframe/urlPath?src=https%3A%2F%2Fe.org&name=E',
    );
  });

  it('labels a tab by its i18n key, else by the menu name in the current language, else its label', () => {
    const t = (key: string) => `t:${key}`;
    const menu = [
      { path: '/a/index', name: 'Parameters', keepAlive: true, external: false, newWindow: false, group: [] },
    ];
    expect(tagLabel(tag('/wel/index', { meta: { i18n: 'route.home' } }), t, menu)).toBe('t:route.home');
    expect(tagLabel(tag('/a/index', { label: '参数管理' }), t, menu)).toBe('Parameters');
    expect(tagLabel(tag('/a/index', { label: 'Mine', query: { name: 'Mine' } }), t, menu)).toBe('Mine');
    expect(tagLabel(tag('/b/index', { label: '别的' }), t, menu)).toBe('别的');
  });
});

describe('guest registration checks (spec §5), in order', () => {
  const ok = { tenantId: '000000', name: 'n', account: 'a', password: 'p', password2: 'p' };
  it('asks for the tenant, then the account, then both passwords, then that they match', () => {
    expect(checkGuestForm({ ...ok, tenantId: ' ', account: '' })).toEqual({
      ok: false,
      key: 'register.tenantRequired',
    });
    expect(checkGuestForm({ ...ok, account: '', password: '' })).toEqual({
      ok: false,
      key: 'register.accountRequired',
    });
    expect(checkGuestForm({ ...ok, password2: '' })).toEqual({ ok: false, key: 'register.passwordRequired' });
    expect(checkGuestForm({ ...ok, password: '' })).toEqual({ ok: false, key: 'register.passwordRequired' });
    expect(checkGuestForm({ ...ok, password2: 'q' })).toEqual({
      ok: false,
      key: 'register.passwordMismatch',
    });
    expect(checkGuestForm({ ...ok, name: '' })).toEqual({ ok: true });
  });
});
