import type { Page, TestInfo } from '@playwright/test';
import axe from 'axe-core';
import { ADMIN, authFile, expect, test } from './fixtures';
import { adminApi } from './flow-helpers';

/**
 * Every screen of the administrator's menu, in Chinese and in English, walked as a person would open
 * them one after another (one page, each screen reached through its menu route, in the app): a
 * screenshot of each goes to the test's output folder (not committed), and the walk fails on
 *   - `null` / `undefined` / `NaN` / `[object Object]` shown as text (anywhere, table cells included);
 *   - a raw field key: a camelCase identifier shown as text (`soilMoisture`);
 *   - Chinese text in English mode outside user data;
 *   - console errors, uncaught errors and failed API calls;
 *   - in Chinese, axe's WCAG 2 A and AA rules over the screen's content (the shell around it is checked in
 *     every theme by themes-contrast.spec.ts).
 *
 * User data: a text is the user's when it is made of values the screen's API calls answered (records,
 * their references, figures' names), never of the texts the console itself writes (headers, labels,
 * buttons, placeholders, titles) nor of dictionary words: those come from the dictionary calls, which
 * are left out of the data, and from a record's `<field>Name` beside its dictionary key. So seeded
 * names of villagers, stations and departments may stay Chinese; a dictionary word, a unit or a seeded
 * menu's name may not.
 */
test.use({ storageState: authFile() });

interface Known {
  /** the walk it is known in */
  lang: 'zh' | 'en';
  /** what fails, exactly as reported (a part of it is enough) */
  text: string;
  /** the screen (its route) it is known on */
  route: string;
  /** who fixes it: the integrator removes the entry once that fix is merged */
  owner: string;
}

/**
 * Known failures, each named with who fixes it: a failure of a screen that is not fixed yet can be listed
 * here while its fix is under way, never to hide one for good. An entry that matched nothing is printed at
 * the end of the walk, so it is removed once its fix is in.
 */
const KNOWN: Known[] = [];

interface MenuNode {
  name: string;
  path: string;
  children?: MenuNode[];
}

const leaves = (nodes: MenuNode[]): MenuNode[] =>
  nodes.flatMap((n) => (n.children?.length ? leaves(n.children) : [n]));

const pageOf = (path: string) => {
  const p = path.startsWith('/') ? path : `/${path}`;
  return p.endsWith('/index') ? p : `${p}/index`;
};

/** The administrator's menu pages, in the menu's order (external links left out). */
async function menuScreens(baseURL: string): Promise<{ name: string; route: string }[]> {
  const api = await adminApi(baseURL);
  const tree = await api.call<MenuNode[]>('GET', '/dfem-system/menu/routes');
  return leaves(tree)
    .filter((n) => n.path && !/^https?:|html/.test(n.path))
    .map((n) => ({ name: n.name, route: pageOf(n.path) }));
}

const HAN = /[\u3400-\u9fff]/;
const NULLISH = /(^|[^\w-])(null|undefined|NaN|\[object Object\])(?![\w-])/;
/**
 * a camelCase identifier standing alone (`soilMoisture`), not part of a path, a URL or a file name; a
 * unit symbol (kWh, hPa, dBm: one small letter first) is not one
 */
const CAMEL = /(^|[^\w./:@#?=&-])([a-z]{2,}(?:[A-Z][a-z0-9]+)+)(?![\w./:@-])/;

/** Every string an API call answered (not a dictionary's words): the screen's user data. */
function collectData(value: unknown, into: Set<string>, parent?: Record<string, unknown>, key?: string) {
  if (typeof value === 'string') {
    // a dictionary key's label beside it (`sexName` beside `sex`) is a dictionary word, not data
    if (parent && key?.endsWith('Name') && key.length > 4 && key.slice(0, -4) in parent) return;
    // a field that keeps JSON text (an evaluation's reopenings) holds its data inside
    if (/^\s*[[{]/.test(value)) {
      try {
        collectData(JSON.parse(value), into);
        return;
      } catch {
        // not JSON after all: the text itself is the data
      }
    }
    if (value.trim() && HAN.test(value)) into.add(value.trim());
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) collectData(v, into);
    return;
  }
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(o)) collectData(v, into, o, k);
  }
}

/** `text` with every data value taken out: what is left was written by the console. */
function withoutData(text: string, data: string[]): string {
  let rest = text;
  for (const d of data) if (rest.includes(d)) rest = rest.split(d).join(' ');
  return rest;
}

interface Shown {
  text: string;
  where: string;
}

/** The visible texts of the page (text nodes, placeholders, titles of inputs), with where each is. */
async function visibleTexts(page: Page): Promise<Shown[]> {
  return page.evaluate(() => {
    const out: { text: string; where: string }[] = [];
    const describe = (el: Element | null): string => {
      const parts: string[] = [];
      for (let e = el; e && parts.length < 3 && e !== document.body; e = e.parentElement) {
        const cls = [...e.classList].find((c) => !c.startsWith('css-')) ?? '';
        parts.unshift(`${e.tagName.toLowerCase()}${cls ? `.${cls}` : ''}`);
      }
      return parts.join(' > ');
    };
    const visible = (el: Element) =>
      el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true });
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent?.trim();
      const el = n.parentElement;
      if (!text || !el || !visible(el)) continue;
      if (el.closest('script, style, noscript, [aria-hidden="true"], .ant-table-measure-row')) continue;
      out.push({ text, where: describe(el) });
    }
    for (const el of document.querySelectorAll('input[placeholder], textarea[placeholder]')) {
      if (!visible(el)) continue;
      const text = el.getAttribute('placeholder')?.trim();
      if (text) out.push({ text, where: `${describe(el)}[placeholder]` });
    }
    return out;
  });
}

/** where a text is, marked `(shell)` when it is in the menu, the header or the tabs rather than the screen */
const placeOf = (where: string) =>
  /^(aside|header|nav)|shell-(sider|header|tags)/.test(where) ? `${where} (shell)` : where;

interface Visit {
  lang: 'zh' | 'en';
  route: string;
  name: string;
}

/** Where the walk is, and what it has found. */
class Walk {
  failures: string[] = [];
  /** shell texts are the same on every screen: each is reported once */
  private seen = new Set<string>();
  data = new Set<string>([ADMIN.realName]);
  /** API calls under way (a video or a stream is not waited for) */
  pending = new Set<import('@playwright/test').Request>();
  /** answers whose bodies are still being read: a request is finished before its body is collected */
  reading = 0;
  current: Visit | null = null;
  constructor(
    private page: Page,
    private lang: 'zh' | 'en',
  ) {
    page.on('console', (m) => {
      if (m.type() === 'error') this.fail('console', m.text().slice(0, 300));
    });
    page.on('pageerror', (e) => this.fail('uncaught', e.message.slice(0, 300)));
    page.on('request', (r) => {
      if (r.url().includes('/api/') && ['fetch', 'xhr'].includes(r.resourceType())) this.pending.add(r);
    });
    const done = (r: import('@playwright/test').Request) => {
      this.pending.delete(r);
    };
    page.on('requestfailed', done);
    page.on('requestfinished', done);
    page.on('response', async (res) => {
      const url = res.url();
      if (!url.includes('/api/')) return;
      if (res.status() >= 400) this.fail('api', `${res.status()} ${url.replace(/^https?:\/\/[^/]+/, '')}`);
      // the words of dictionaries and menus are the console's, not data
      if (/\/dictionary(-tree)?\b|\/menu\/routes|\/menu\/buttons/.test(url)) return;
      if (!(res.headers()['content-type'] ?? '').includes('json')) return;
      this.reading += 1;
      try {
        collectData(await res.json(), this.data);
      } catch {
        // a body Chromium let go before it was read (a busy machine): a GET is asked again as the page
        // asked it (its headers, its token), so its data is still known; anything else is left out
        if (res.request().method() === 'GET')
          await page.request
            .fetch(res.request())
            .then(async (again) => collectData(await again.json(), this.data))
            .catch((e) => console.log(`the data of ${url} could not be read: ${e}`));
      } finally {
        this.reading -= 1;
      }
    });
  }

  fail(kind: string, detail: string, where = '') {
    const at = this.current ? `${this.current.route} (${this.current.name})` : '(before the walk)';
    const key = `${kind}|${detail}|${where}`;
    if (where && this.seen.has(key)) return;
    this.seen.add(key);
    const line = `${this.lang} ${at} ${kind}: ${detail}${where ? ` @ ${where}` : ''}`;
    this.failures.push(line);
    console.log(`found: ${line}`);
  }

  /** network quiet (no API call for 300 ms) and nothing marked busy, at most 10 s */
  async settle() {
    const until = Date.now() + 10_000;
    let quietSince = Date.now();
    while (Date.now() < until) {
      await this.page.waitForTimeout(100);
      if (this.pending.size > 0 || this.reading > 0) {
        quietSince = Date.now();
        continue;
      }
      const busy = await this.page
        .locator('main [aria-busy="true"], main .ant-spin-spinning, main .ant-skeleton-active')
        .filter({ visible: true })
        .count();
      if (busy) quietSince = Date.now();
      if (Date.now() - quietSince >= 300) return true;
    }
    const busy = await this.page
      .locator('main [aria-busy="true"], main .ant-spin-spinning, main .ant-skeleton-active')
      .filter({ visible: true })
      .evaluateAll((els) => els.map((e) => e.outerHTML.slice(0, 120)));
    console.log(
      'pending',
      [...this.pending].map((r) => r.url()),
      busy,
    );
    this.pending.clear();
    return false;
  }

  async check(visit: Visit, info: TestInfo, axe: boolean) {
    this.current = visit;
    await expect(this.page.locator('main')).toBeVisible();
    if (!(await this.settle())) console.log(`${visit.lang} ${visit.route}: still busy after 10 s`);
    const failedBefore = this.failures.length;
    const untranslated = (shown: Shown[]) => {
      const data = [...this.data].sort((a, b) => b.length - a.length);
      return shown.filter(({ text }) => HAN.test(text) && HAN.test(withoutData(text, data)));
    };
    const shown = await visibleTexts(this.page);
    let chinese = visit.lang === 'en' ? untranslated(shown) : [];
    // on a loaded machine the screen can show an answer whose body is still being read here: Chinese
    // text counts as the console's only once the network is quiet again and the data known then explain it not
    if (chinese.length) {
      await this.settle();
      chinese = untranslated(chinese);
    }
    for (const { text, where } of shown) {
      const at = placeOf(where);
      const nullish = NULLISH.exec(text);
      if (nullish) this.fail('null', text.slice(0, 120), at);
      const camel = CAMEL.exec(text);
      if (camel) this.fail('raw key', `${camel[2]} in "${text.slice(0, 120)}"`, at);
    }
    for (const { text, where } of chinese) this.fail('chinese', text.slice(0, 120), placeOf(where));
    if (axe && (await this.page.locator('main').count())) {
      // axe is in the page since its load (addInitScript): only the screen's content is analysed, and only
      // violations are collected (what @axe-core/playwright does, without injecting axe on every screen)
      const violations = await this.page.evaluate(async () => {
        const run = (window as unknown as { axe: typeof import('axe-core') }).axe.run;
        const results = await run(document.querySelector('main') as Element, {
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] },
          resultTypes: ['violations'],
        });
        return results.violations.map((v) => ({
          id: v.id,
          nodes: v.nodes.map((n) => ({
            target: n.target.join(' '),
            message: n.any[0]?.message ?? n.failureSummary ?? '',
          })),
        }));
      });
      for (const v of violations)
        for (const n of v.nodes) this.fail('axe', `${v.id}: ${n.message}`.slice(0, 200), n.target);
    }
    // a picture of the screens that failed, to see what was found (one of every screen cost a minute a run)
    if (this.failures.length > failedBefore)
      await this.page.screenshot({
        path: info.outputPath(`${visit.lang}${visit.route.replaceAll('/', '_')}.jpg`),
        type: 'jpeg',
        quality: 60,
      });
  }
}

/** Opens `route` in the app as a menu link would (the router's own navigation: no reload). */
async function open(page: Page, route: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, route);
  await expect(page).toHaveURL(new RegExp(`${route.replaceAll('/', '\\/')}$|/404$|/403$`));
}

/** the failures not explained by a KNOWN entry, and the KNOWN entries nothing matched */
function unexplained(failures: string[], lang: 'zh' | 'en') {
  const used = new Set<Known>();
  const left = failures.filter((f) => {
    const k = KNOWN.find((k) => k.lang === lang && f.includes(k.text) && f.includes(` ${k.route} `));
    if (k) used.add(k);
    return !k;
  });
  return { left, used, lang };
}

/** the walk in two halves a language (four tests, run side by side on two workers) */
const PARTS = 2;

for (const lang of ['zh', 'en'] as const) {
  for (let part = 0; part < PARTS; part += 1) {
    test(`every menu screen in ${lang === 'zh' ? 'Chinese' : 'English'} (part ${part + 1} of ${PARTS}): no null, no raw keys, ${
      lang === 'en' ? 'no Chinese outside user data, ' : 'axe WCAG 2 A/AA, '
    }no console errors`, async ({ page, baseURL }, info) => {
      // about 2 minutes alone on two cores; far longer when the machine is shared
      test.setTimeout(900_000);
      const all = await menuScreens(baseURL!);
      expect(all.length).toBeGreaterThan(100);
      const size = Math.ceil(all.length / PARTS);
      const screens = all.slice(part * size, (part + 1) * size);
      await page.goto('/wel/index');
      await page.evaluate(
        (language) =>
          localStorage.setItem('saber-language', JSON.stringify({ state: { language }, version: 0 })),
        lang,
      );
      if (lang === 'zh') await page.addInitScript({ content: axe.source });
      const walk = new Walk(page, lang);
      const started = Date.now();
      for (const [i, s] of screens.entries()) {
        // a fresh start every 20 screens: the kept-alive pages of the tabs opened so far are let go
        if (i % 20 === 0) {
          walk.current = { lang, route: s.route, name: s.name };
          await page.goto(s.route);
        } else {
          await open(page, s.route);
        }
        await expect(page.locator('html')).toHaveAttribute('lang', lang === 'zh' ? 'zh-CN' : 'en');
        if (new URL(page.url()).pathname !== s.route) walk.fail('route', `opened ${page.url()}`);
        await walk.check({ lang, route: s.route, name: s.name }, info, lang === 'zh');
      }
      console.log(
        `${lang} part ${part + 1}: ${screens.length} screens in ${((Date.now() - started) / 1000).toFixed(0)} s, ${walk.failures.length} failures`,
      );
      const { left, used } = unexplained(walk.failures, lang);
      await info.attach(`failures-${lang}-${part + 1}.txt`, { body: walk.failures.join('\n') || '(none)' });
      expect(left, left.join('\n')).toEqual([]);
      // a known failure that did not happen this time is reported (its fix may be in; some depend on the
      // data of the moment, such as the alarms open now), not failed
      const routes = new Set(screens.map((x) => x.route));
      for (const k of KNOWN.filter((k) => k.lang === lang && routes.has(k.route) && !used.has(k)))
        console.log(`known failure not seen: ${k.route} ${k.text} (${k.owner})`);
    });
  }
}
