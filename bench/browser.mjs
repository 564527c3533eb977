// The browser half of `npm run bench` (bench/run.mjs): Debian's Chromium against a running server, for the
// JS + CSS bytes on the wire to show /login and the signed-in home (each from a cold cache), a kept-alive
// tab's click-to-visible time, and the JS heap after opening 20 tabs and closing them, round after round.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { API_MENU, adminSession, BENCH_PASSWORD, getJson, makeLog } from './lib.mjs';
import { kb } from './measure.mjs';

const CHROMIUM = '/usr/bin/chromium';
const log = makeLog('bench');

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Counts JS and CSS responses (compressed, as transferred) of a page until network idle. */
function track(page) {
  const pending = [];
  const files = [];
  page.on('requestfinished', (req) => {
    pending.push(
      (async () => {
        const res = await req.response();
        if (!res) return;
        const type = req.resourceType();
        const ctype = res.headers()['content-type'] ?? '';
        const isJs = type === 'script' || /javascript/.test(ctype);
        const isCss = type === 'stylesheet' || /text\/css/.test(ctype);
        if (!isJs && !isCss) return;
        const sizes = await req.sizes();
        const length = Number(res.headers()['content-length'] ?? 0);
        const bytes = sizes.responseBodySize || length;
        files.push({
          url: new URL(req.url()).pathname,
          kind: isJs ? 'js' : 'css',
          bytes,
          encoding: res.headers()['content-encoding'] ?? 'identity',
          status: res.status(),
        });
      })(),
    );
  });
  return async () => {
    await Promise.all(pending);
    return files;
  };
}

function summarise(label, files) {
  const total = files.reduce((s, f) => s + f.bytes, 0);
  const encodings = [...new Set(files.map((f) => f.encoding))].join('/');
  log(`${label}: ${files.length} JS/CSS files, ${kb(total)} on the wire (${encodings || 'none'})`);
  for (const f of [...files].sort((a, b) => b.bytes - a.bytes)) {
    log(`    ${kb(f.bytes).padStart(9)}  ${f.kind.padEnd(3)} ${f.encoding.padEnd(8)} ${f.status} ${f.url}`);
  }
  return { total, files: files.length, encodings };
}

async function signInThroughForm(page, base) {
  await page.goto(`${base}/login`, { waitUntil: 'networkidle', timeout: 30_000 });
  const password = page.locator('input[type="password"]').first();
  await password.waitFor({ state: 'visible', timeout: 10_000 });
  const byName = page
    .locator(
      'input[autocomplete="username"], input[name="username"], input[id$="username"], input[name="account"]',
    )
    .first();
  const username = (await byName.count())
    ? byName
    : page.locator('input:not([type]), input[type="text"]').filter({ visible: true }).first();
  await username.fill('admin');
  await password.fill(BENCH_PASSWORD);
  const submitted = performance.now();
  await password.press('Enter');
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 15_000 });
  // the home workplace's parts, drawn from its one answer (GET /api/dfem-desk/home)
  const homeMs = await page
    .locator('[data-testid="home-workplace"]')
    .waitFor({ state: 'visible', timeout: 15_000 })
    .then(() => performance.now() - submitted)
    .catch(() => undefined);
  await page.waitForLoadState('networkidle', { timeout: 30_000 });
  return homeMs;
}

/** The tokens where the web app keeps them (cookie saber-access-token, localStorage saber-token). */
function injectedState(base, session) {
  const origin = new URL(base).origin;
  const cookie = (name, value) => ({
    name,
    value: encodeURIComponent(value),
    domain: '127.0.0.1',
    path: '/',
    expires: -1,
    httpOnly: false,
    secure: false,
    sameSite: 'Lax',
  });
  const blob = {
    state: {
      tokenIssuedAt: Date.now(),
      expiresIn: Number(session.expires_in) || 0,
      tenantId: session.tenant_id,
      passwordChangeRequired: false,
    },
    version: 0,
  };
  return {
    cookies: [
      cookie('saber-access-token', session.access_token),
      cookie('saber-refresh-token', session.refresh_token),
    ],
    origins: [
      {
        origin,
        localStorage: [
          { name: 'saber-token', value: session.access_token },
          { name: 'saber-refresh-token', value: session.refresh_token },
          { name: 'saber-session', value: JSON.stringify(blob) },
        ],
      },
    ],
  };
}

export async function measureWeb(base, webDist) {
  if (!existsSync(join(webDist, 'index.html'))) {
    log(`web: ${webDist}/index.html missing: browser rows are n/a`);
    return { missing: true };
  }
  log('web: launching Chromium…');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const web = {};
  try {
    // /login from a cold cache
    {
      const context = await browser.newContext({ serviceWorkers: 'block' });
      const page = await context.newPage();
      const done = track(page);
      await page.goto(`${base}/login`, { waitUntil: 'networkidle', timeout: 30_000 });
      // on a busy machine the entry can take longer to run than networkidle's 500 ms: wait for the form
      await page
        .locator('input[type="password"]')
        .first()
        .waitFor({ timeout: 15_000 })
        .catch(() => {});
      await page.waitForLoadState('networkidle', { timeout: 30_000 });
      const hasForm = await page.locator('input[type="password"]').count();
      web.login = summarise('/login', await done());
      if (!hasForm) web.login.note = 'no password field rendered';
      await context.close();
    }
    // sign in through the form (the session is stored as the app stores it), then the home from a cold cache
    let state;
    {
      const context = await browser.newContext({ serviceWorkers: 'block' });
      const page = await context.newPage();
      try {
        web.signInHomeMs = await signInThroughForm(page, base);
        state = await context.storageState();
        log(`web: signed in through the form, landed on ${new URL(page.url()).pathname}`);
      } catch (err) {
        log(
          `web: signing in through the form failed (${err.message.split('\n')[0]}): injecting tokens instead`,
        );
        const session = await adminSession(base);
        state = injectedState(base, session);
        web.injected = true;
      }
      await context.close();
    }
    {
      const context = await browser.newContext({ serviceWorkers: 'block', storageState: state });
      const page = await context.newPage();
      const done = track(page);
      await page.goto(`${base}/wel/index`, { waitUntil: 'networkidle', timeout: 30_000 });
      // the same for the shell: wait for its tabs, then for the page's own requests
      await page
        .locator('[role="tab"]')
        .first()
        .waitFor({ timeout: 15_000 })
        .catch(() => {});
      await page.waitForLoadState('networkidle', { timeout: 30_000 });
      const landed = new URL(page.url()).pathname;
      web.home = summarise(`home (${landed})`, await done());
      if (landed !== '/wel/index') web.home.note = `landed on ${landed}`;
      await context.close();
    }
    // the shell: kept-alive tabs and the heap over rounds of 20 tabs
    try {
      web.shell = await measureShell(browser, base, state);
    } catch (err) {
      log(`shell measurements FAILED: ${err.stack ?? err}`);
      web.shell = { error: String(err.message ?? err).split('\n')[0] };
    }
  } finally {
    await browser.close();
  }
  return web;
}

/** A navigation inside the app (what a link does), not a page load. */
function inApp(page, path) {
  return page.evaluate((to) => {
    history.pushState({}, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/**
 * Waits until the shell shows the tab of `path` with its page loaded: the tab selected, no loading
 * placeholder, and no other page's table still on screen.
 */
async function settled(page, path, { table = false } = {}) {
  try {
    const handle = await page.waitForFunction(
      ([p, wantTable]) => {
        const tab = document.querySelector('[role="tab"][aria-selected="true"]');
        const area = document.querySelector('#shell-page');
        if (!tab || !area || tab.getAttribute('data-value')?.split('?')[0] !== p) return false;
        if (area.querySelector('[aria-busy="true"]') || area.children.length === 0) return false;
        const visibleTable = [...area.querySelectorAll('table')].some((t) => t.checkVisibility());
        return wantTable === null || visibleTable === wantTable;
      },
      [path, table === 'any' ? null : table],
      { timeout: 20_000 },
    );
    await handle.dispose(); // a handle kept alive would itself grow the page's heap
  } catch (err) {
    throw new Error(`${path} did not settle: ${err.message.split('\n')[0]}`);
  }
  await page.waitForLoadState('networkidle', { timeout: 20_000 }).catch(() => {});
}

/** rounds of 20 tabs for the heap measurement */
export const ROUNDS = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Kept-alive tabs: the ms from clicking the tab of a kept list page to its table being visible (median
 * of 10, measured in the page from the click to the first frame that shows it); and the JS heap (after
 * a forced GC) after opening 20 menu pages as tabs and closing them all, three rounds.
 */
async function measureShell(browser, base, state) {
  const context = await browser.newContext({
    serviceWorkers: 'block',
    storageState: state,
    viewport: { width: 1400, height: 900 },
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  try {
    await page.goto(`${base}/wel/index`, { waitUntil: 'networkidle', timeout: 30_000 });
    const token = await page.evaluate(() => localStorage.getItem('saber-token'));
    const menu = await getJson(`${base}${API_MENU}`, { 'blade-auth': `bearer ${token}` });
    const leaves = [];
    const walk = (nodes) => {
      for (const n of nodes) {
        if (n.children?.length) walk(n.children);
        else if (n.path && !/^https?:|html/.test(n.path))
          leaves.push(n.path.endsWith('/index') ? n.path : `${n.path}/index`);
      }
    };
    walk(menu.data);

    // 1. switching back to a kept-alive list page
    const kept = leaves.find((p) => p === '/system/param/index') ?? leaves[0];
    await inApp(page, kept);
    await settled(page, kept, { table: true });
    const label = await page.evaluate(
      () => document.querySelector('[role="tab"][aria-selected="true"]')?.textContent?.trim() ?? '',
    );
    const times = [];
    for (let i = 0; i < 10; i += 1) {
      await inApp(page, '/wel/index');
      await settled(page, '/wel/index', { table: false });
      times.push(
        await page.evaluate(
          (name) =>
            new Promise((resolve, reject) => {
              const tab = [...document.querySelectorAll('[role="tab"]')].find(
                (t) => t.textContent.trim() === name,
              );
              if (!tab) return reject(new Error(`no tab ${name}`));
              const t0 = performance.now();
              tab.click();
              const check = () => {
                const table = [...document.querySelectorAll('#shell-page table')].find((t) =>
                  t.checkVisibility(),
                );
                if (table) resolve(performance.now() - t0);
                else if (performance.now() - t0 > 10_000)
                  reject(new Error('the kept page did not come back'));
                else requestAnimationFrame(check);
              };
              check();
            }),
          label,
        ),
      );
    }
    const switchMs = median(times);
    log(
      `shell: kept-alive tab back in ${switchMs.toFixed(1)} ms (median of ${times.length}: ${times.map((t) => t.toFixed(0)).join(', ')})`,
    );

    // 2. the heap over rounds of 20 tabs opened and closed
    const twenty = Array.from({ length: 20 }, (_, i) =>
      i < leaves.length ? leaves[i] : `${leaves[i % leaves.length]}?copy=${i}`,
    );
    /**
     * After a forced GC: the JS heap, the part of it that is the page's objects (a heap snapshot without
     * V8's compiled code and its internal metadata — hidden objects and object shapes — which keep
     * growing while functions get optimised: caches of the engine, not the page's data), and the DOM
     * nodes and listeners. The browser's own timing buffers are emptied first.
     */
    const measure = async () => {
      await page.evaluate(() => {
        performance.clearResourceTimings();
        performance.clearMarks();
        performance.clearMeasures();
      });
      await cdp.send('HeapProfiler.collectGarbage');
      await cdp.send('HeapProfiler.collectGarbage');
      const chunks = [];
      const onChunk = (e) => chunks.push(e.chunk);
      cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
      await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
      const snap = JSON.parse(chunks.join(''));
      const fields = snap.snapshot.meta.node_fields;
      const typeAt = fields.indexOf('type');
      const sizeAt = fields.indexOf('self_size');
      const types = snap.snapshot.meta.node_types[0];
      const engine = new Set(['code', 'hidden', 'object shape'].map((t) => types.indexOf(t)));
      let objects = 0;
      for (let i = 0; i < snap.nodes.length; i += fields.length) {
        if (!engine.has(snap.nodes[i + typeAt])) objects += snap.nodes[i + sizeAt];
      }
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      const dom = await cdp.send('Memory.getDOMCounters');
      return { heap: usedSize, objects, nodes: dom.nodes, listeners: dom.jsEventListeners };
    };
    const mb = (n) => (n / 1048576).toFixed(1);
    await inApp(page, '/wel/index');
    await settled(page, '/wel/index');
    const baseline = await measure();
    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const path of twenty) {
        await inApp(page, path);
        await settled(page, path.split('?')[0], { table: 'any' });
      }
      const open = await page.locator('[role="tab"]').count();
      await page.getByRole('button', { name: '标签操作' }).click();
      await page.getByRole('menuitem', { name: '关闭全部' }).click();
      await settled(page, '/wel/index');
      const left = await page.locator('[role="tab"]').count();
      const m = await measure();
      rounds.push(m);
      log(
        `shell: round ${round + 1}: ${open} tabs open, closed to ${left}; heap ${mb(m.heap)} MB, of which objects ` +
          `${mb(m.objects)} MB; ${m.nodes} DOM nodes, ${m.listeners} listeners`,
      );
    }
    return { switchMs, times, baseline, rounds, tabs: twenty.length };
  } finally {
    await context.close();
  }
}
