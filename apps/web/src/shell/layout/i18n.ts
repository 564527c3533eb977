/** Registers the layout's strings when the layout (or a shell page that shows them) loads. */
import { addBundle } from '../../platform/i18n';
import { layoutEn, layoutZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    navbar: typeof layoutZh.navbar;
    menu: typeof layoutZh.menu;
    tags: typeof layoutZh.tags;
    password: typeof layoutZh.password;
    wel: typeof layoutZh.wel;
    lock: typeof layoutZh.lock;
    topMenu: typeof layoutZh.topMenu;
    search: typeof layoutZh.search;
    color: typeof layoutZh.color;
    log: typeof layoutZh.log;
    theme: typeof layoutZh.theme;
    notice: typeof layoutZh.notice;
    switch: typeof layoutZh.switch;
    register: typeof layoutZh.register;
    iframe: typeof layoutZh.iframe;
    dashboard: typeof layoutZh.dashboard;
    testPage: typeof layoutZh.testPage;
  }
}

addBundle('navbar', layoutZh.navbar, layoutEn.navbar);
addBundle('menu', layoutZh.menu, layoutEn.menu);
addBundle('tags', layoutZh.tags, layoutEn.tags);
addBundle('password', layoutZh.password, layoutEn.password);
addBundle('wel', layoutZh.wel, layoutEn.wel);
addBundle('lock', layoutZh.lock, layoutEn.lock);
addBundle('topMenu', layoutZh.topMenu, layoutEn.topMenu);
addBundle('search', layoutZh.search, layoutEn.search);
addBundle('color', layoutZh.color, layoutEn.color);
addBundle('log', layoutZh.log, layoutEn.log);
addBundle('theme', layoutZh.theme, layoutEn.theme);
addBundle('notice', layoutZh.notice, layoutEn.notice);
addBundle('switch', layoutZh.switch, layoutEn.switch);
addBundle('register', layoutZh.register, layoutEn.register);
addBundle('iframe', layoutZh.iframe, layoutEn.iframe);
addBundle('dashboard', layoutZh.dashboard, layoutEn.dashboard);
addBundle('testPage', layoutZh.testPage, layoutEn.testPage);
