import { FIRST_PAGE, LOCK_PAGE } from '@smart/contracts/core';
import { describe, expect, it } from 'vitest';
import {
  afterSignIn,
  type Decision,
  decideNavigation,
  type GuardState,
  matchPattern,
  STATIC_ROUTES,
} from './guard';
import { flattenMenu, normalizeMenu } from './menu';

const menu = flattenMenu(
  normalizeMenu([
    {
      id: '1',
      parentId: '0',
      code: 'system',
      name: '系统管理',
      alias: 'system',
      path: '/system',
      source: 'SettingOutlined',
      sort: 1,
      category: 1,
      action: 0,
      isOpen: 1,
      children: [
        {
          id: '2',
          parentId: '1',
          code: 'user',
          name: '用户管理',
          alias: 'user',
          path: '/system/user',
          source: '',
          sort: 1,
          category: 1,
          action: 0,
          isOpen: 1,
          keepAlive: true,
          children: [],
        },
        {
          id: '3',
          parentId: '1',
          code: 'docs',
          name: '接口文档',
          alias: 'docs',
          path: 'https://example.org/docs',
          source: '',
          sort: 2,
          category: 1,
          action: 0,
          isOpen: 2,
          children: [],
        },
      ],
    },
  ]),
);

const signedIn: GuardState = { token: 'tok', cookieToken: 'tok', locked: false, menu };
const signedOut: GuardState = { token: '', cookieToken: '', locked: false, menu: [] };

function go(state: GuardState, url: string): Decision {
  const u = new URL(url, 'http://localhost');
  return decideNavigation(state, { pathname: u.pathname, search: u.search });
}

function pass(decision: Decision) {
  if (decision.kind !== 'pass') throw new Error(`expected pass, got ${JSON.stringify(decision)}`);
  return decision;
}

describe('decideNavigation — redirects of the route table', () => {
  it('sends / to /wel and /wel to the home page', () => {
    expect(go(signedIn, '/')).toEqual({ kind: 'redirect', to: '/wel' });
    expect(go(signedIn, '/wel')).toEqual({ kind: 'redirect', to: FIRST_PAGE });
    expect(FIRST_PAGE).toBe('/wel/index');
  });

  it('follows the same redirects when signed out, then the guard applies', () => {
    expect(go(signedOut, '/')).toEqual({ kind: 'redirect', to: '/wel' });
    expect(go(signedOut, '/wel/index')).toEqual({ kind: 'redirect', to: '/login' });
  });
});

describe('decideNavigation — with a token', () => {
  it('sends everything but the lock page to /lock while locked', () => {
    const locked = { ...signedIn, locked: true };
    expect(go(locked, '/wel/index')).toEqual({ kind: 'redirect', to: LOCK_PAGE });
    expect(go(locked, '/login')).toEqual({ kind: 'redirect', to: LOCK_PAGE });
    expect(go(locked, '/system/user/index')).toEqual({ kind: 'redirect', to: LOCK_PAGE });
    expect(pass(go(locked, '/lock')).tab).toBeNull();
  });

  it('sends /login to /', () => {
    expect(go(signedIn, '/login')).toEqual({ kind: 'redirect', to: '/' });
    expect(go(signedIn, '/login?redirect=x')).toEqual({ kind: 'redirect', to: '/' });
  });

  it('logs out locally and goes to /login when the stored (cookie) token is empty', () => {
    expect(go({ ...signedIn, cookieToken: '' }, '/wel/index')).toEqual({
      kind: 'redirect',
      to: '/login',
      logout: true,
    });
  });

  it('adds the home tab with its i18n label', () => {
    const d = pass(go(signedIn, '/wel/index'));
    expect(d.tab).toMatchObject({ label: 'home', value: '/wel/index', meta: { i18n: 'route.home' } });
    expect(d.title).toEqual({ label: 'home', i18n: 'route.home' });
    expect(d.menu).toBe(true);
  });

  it('adds a tab for a page of the server menu, labelled with the menu name and carrying its group', () => {
    const d = pass(go(signedIn, '/system/user/index'));
    expect(d.tab).toEqual({
      label: '用户管理',
      value: '/system/user/index',
      params: {},
      query: {},
      meta: { keepAlive: true },
      group: ['/system'],
    });
    // the title names the path: it is shown by the menu's name in the current language
    expect(d.title).toEqual({ label: '用户管理', i18n: undefined, path: '/system/user/index' });
  });

  it('takes the label from query name and the value from query src', () => {
    const d = pass(go(signedIn, '/system/user/index?name=Custom&src=/system/user/index?x=1'));
    expect(d.tab?.label).toBe('Custom');
    expect(d.tab?.value).toBe('/system/user/index?x=1');
    expect(d.tab?.query).toEqual({ name: 'Custom', src: '/system/user/index?x=1' });
    expect(d.title.label).toBe('Custom');
  });

  it('uses the full path (with the query) as the value when there is no src', () => {
    const d = pass(go(signedIn, '/system/user/index?deptId=5'));
    expect(d.tab?.value).toBe('/system/user/index?deptId=5');
    expect(d.tab?.query).toEqual({ deptId: '5' });
  });

  it('takes an i18n key from the query', () => {
    const d = pass(go(signedIn, '/wel/index?i18n=route.info'));
    expect(d.tab?.meta.i18n).toBe('route.info');
  });

  it('keeps route params on the tab', () => {
    const routes = [
      ...STATIC_ROUTES,
      { path: '/work/process/leave/detail/:processInstanceId/:businessId', name: 'leave', meta: {} },
    ];
    const d = pass(go({ ...signedIn, routes }, '/work/process/leave/detail/p1/b2'));
    expect(d.tab?.params).toEqual({ processInstanceId: 'p1', businessId: 'b2' });
  });

  it('adds no tab when meta isTab is false', () => {
    for (const path of ['/lock', '/404', '/403', '/500']) {
      const d = pass(go(signedIn, path));
      expect(d.tab, path).toBeNull();
    }
  });

  it('adds no tab when the label is empty', () => {
    const routes = [...STATIC_ROUTES, { path: '/nameless/index', name: '', meta: {} }];
    const d = pass(go({ ...signedIn, routes }, '/nameless/index'));
    expect(d.tab).toBeNull();
  });

  it('opens a query target in a new window instead of navigating', () => {
    // without the target itself, or the new window would open another one
    expect(go(signedIn, '/system/user/index?target=_blank')).toEqual({
      kind: 'open',
      url: '/system/user/index',
    });
    expect(go(signedIn, '/system/user/index?a=1&target=_blank')).toEqual({
      kind: 'open',
      url: '/system/user/index?a=1',
    });
    expect(go(signedIn, '/system/user/index?target=1&src=https://example.org')).toEqual({
      kind: 'open',
      url: 'https://example.org',
    });
  });

  it('sets the menu flag from route meta or the query parameter menu', () => {
    expect(pass(go(signedIn, '/wel/index')).menu).toBe(true);
    expect(pass(go(signedIn, '/wel/index?menu=false')).menu).toBe(false);
    expect(pass(go(signedIn, '/404')).menu).toBe(false);
    expect(pass(go(signedIn, '/404?menu=true')).menu).toBe(true);
  });

  it('sends unknown paths, and menu paths the user does not have, to /404', () => {
    expect(go(signedIn, '/no/such/page')).toEqual({ kind: 'redirect', to: '/404' });
    expect(go(signedIn, '/system/role/index')).toEqual({ kind: 'redirect', to: '/404' });
    // external menu entries are not app routes
    expect(go(signedIn, '/https://example.org/docs')).toEqual({ kind: 'redirect', to: '/404' });
  });

  it('ignores a trailing slash', () => {
    expect(pass(go(signedIn, '/wel/index/')).tab?.value).toBe('/wel/index');
  });
});

describe('decideNavigation — the shell’s own pages', () => {
  it('knows the console, the test page and personal info, each with its i18n label', () => {
    expect(pass(go(signedIn, '/wel/dashboard')).tab).toMatchObject({
      value: '/wel/dashboard',
      meta: { i18n: 'route.dashboard' },
    });
    expect(pass(go(signedIn, '/test/index')).title).toEqual({ label: 'test', i18n: 'route.test' });
    expect(pass(go(signedIn, '/info/index')).tab?.meta.i18n).toBe('route.info');
  });

  it('embeds an external page at /myiframe: the tab is the src, labelled by the query name, kept alive', () => {
    const src = 'https://example.org/docs';
    const d = pass(go(signedIn, `/myiframe/urlPath?src=${encodeURIComponent(src)}&name=Docs`));
    expect(d.tab).toMatchObject({ label: 'Docs', value: src, meta: { keepAlive: true } });
    expect(d.tab?.meta.i18n).toBeUndefined();
    expect(d.title).toEqual({ label: 'Docs', i18n: undefined });
    expect(go(signedIn, `/myiframe/urlPath?src=${encodeURIComponent(src)}&target=_blank`)).toEqual({
      kind: 'open',
      url: src,
    });
  });
});

describe('decideNavigation — without a token', () => {
  it('lets public routes (meta isAuth false) pass, without a tab', () => {
    for (const path of ['/login', '/lock', '/404', '/403', '/500']) {
      const d = pass(go(signedOut, path));
      expect(d.tab, path).toBeNull();
    }
    expect(pass(go(signedOut, '/login')).title).toEqual({ label: 'login', i18n: 'route.login' });
  });

  it('sends guarded routes to /login, remembering the page asked for (the home needs no remembering)', () => {
    expect(go(signedOut, '/wel/index')).toEqual({ kind: 'redirect', to: '/login' });
    expect(go(signedOut, '/info/index')).toEqual({ kind: 'redirect', to: '/login?redirect=%2Finfo%2Findex' });
  });

  it('ignores a cookie without a session token', () => {
    expect(go({ ...signedOut, cookieToken: 'stale' }, '/wel/index')).toEqual({
      kind: 'redirect',
      to: '/login',
    });
  });

  it('sends a deep link to /login first (a menu page is unknown until signed in), then on to it', () => {
    expect(go(signedOut, '/no/such/page')).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fno%2Fsuch%2Fpage',
    });
    // the query comes along: once signed in, the same page with the same filter
    const to = (go(signedOut, '/village/villager/index?name=王') as { to: string }).to;
    expect(to.startsWith('/login?redirect=')).toBe(true);
    expect(decodeURIComponent(afterSignIn(to.slice(to.indexOf('?'))))).toBe(
      '/village/villager/index?name=王',
    );
    expect(afterSignIn('?redirect=%2Fvillage%2Fvillager%2Findex')).toBe('/village/villager/index');
    // only the console's own paths: never another site, nor back to /login
    for (const bad of [
      '//evil.example/x',
      'https://evil.example',
      '/\\evil.example',
      '/login?redirect=/x',
      '',
    ])
      expect(afterSignIn(`?redirect=${encodeURIComponent(bad)}`), bad).toBe('/');
    expect(afterSignIn('')).toBe('/');
  });
});

describe('matchPattern', () => {
  it('matches static segments and captures params', () => {
    expect(matchPattern('/a/:id', '/a/42')).toEqual({ id: '42' });
    expect(matchPattern('/a/:id', '/a/42/b')).toBeNull();
    expect(matchPattern('/a/b', '/a/c')).toBeNull();
    expect(matchPattern('/', '/')).toEqual({});
  });
});

describe('menu normalisation', () => {
  it('appends /index to leaves, keeps external paths, gives a default icon', () => {
    const items = normalizeMenu([
      {
        id: '9',
        parentId: '0',
        code: 'x',
        name: 'X',
        alias: '',
        path: '/x',
        source: '',
        sort: 2,
        category: 1,
        action: 0,
        isOpen: 1,
        children: [],
      },
      {
        id: '8',
        parentId: '0',
        code: 'h',
        name: 'H',
        alias: '',
        path: '/static/page.html',
        source: 'HomeOutlined',
        sort: 1,
        category: 1,
        action: 0,
        isOpen: 1,
        children: [],
      },
    ]);
    expect(items.map((i) => i.path)).toEqual(['/static/page.html', '/x/index']);
    expect(items.map((i) => i.icon)).toEqual(['HomeOutlined', 'AppstoreOutlined']);
    expect(items[0].external).toBe(true);
    expect(menu.map((m) => m.path)).toEqual(['/system/user/index', 'https://example.org/docs']);
  });
});

describe('routes of spec §2 outside the menu', () => {
  it('opens the leave process pages with their params, and both dictionary layouts', () => {
    const form = pass(go(signedIn, '/work/process/leave/form/leave:1:42'));
    expect(form.tab).toMatchObject({
      params: { processDefinitionId: 'leave:1:42' },
      meta: { i18n: 'route.leaveForm' },
    });
    expect(pass(go(signedIn, '/work/process/leave/handle/t1/p1/b1')).tab?.params).toEqual({
      taskId: 't1',
      processInstanceId: 'p1',
      businessId: 'b1',
    });
    expect(pass(go(signedIn, '/work/process/leave/detail/p1/b1')).tab?.meta.i18n).toBe('route.leaveDetail');
    expect(pass(go(signedIn, '/dict-horizontal/index')).tab?.meta.i18n).toBe('route.dictHorizontal');
    expect(pass(go(signedIn, '/dict-vertical/index')).tab?.meta.i18n).toBe('route.dictVertical');
    expect(go(signedIn, '/work/process/leave/form')).toEqual({ kind: 'redirect', to: '/404' });
  });
});
