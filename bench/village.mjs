// Village affairs (村务) workloads of 智慧管理系统: `npm run bench` (builds first, runs run.mjs, workloads.mjs,
// then this) or `node bench/village.mjs` (uses what is built).
//
//   1. GET villager/page over 1 000 000 villagers with the filters a clerk uses, as the administrator:
//      a village group + sex (the list's selects), and a name typed into the search box (matched anywhere);
//      read from the database on every request (READ_CACHE=false) against the same SQL behind a bare
//      Fastify route (bench/bare-village-server.mjs): overhead ratio (on PostgreSQL both run at once and are
//      measured in turns, each side reported by its median of BENCH_TURNS); then as the product answers it
//      (the page remembered until the villagers change)
//   2. Excel export of one village group's 100 000 villagers (time to download, server peak memory)
//   3. Excel import of 10 000 villagers, filled in as the template asks (with the progress polling the web does)
//
// PGlite always; PostgreSQL too when DATABASE_URL is set. Its own data, so it never disturbs run.mjs's nor
// workloads.mjs's: PGlite in <BENCH_DATA>/village-pglite, PostgreSQL in the database of DATABASE_URL with
// `_village` appended (smart_bench → smart_bench_village; created when missing; VILLAGE_DATABASE_URL names
// another). Seeded villagers are kept between runs; the imported ones are removed before the next run.
// Progress goes to stderr; the table to stdout and to bench/last-village.md.
// Environment: DATABASE_URL, VILLAGE_DATABASE_URL, BENCH_DATABASES (pglite,postgres: which of the two to
// run), BENCH_SECONDS (load per route, default 10), BENCH_TURNS (turns of real and bare, default 3),
// BENCH_DATA (data folder root, default <repo>/.bench-data), VILLAGERS (seeded villagers, default 1 000 000).
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  adminSession,
  assertServerBuilt,
  authHeaders,
  freePort,
  getJson,
  here,
  installExitHandlers,
  load,
  makeLog,
  migratedDatabase,
  pgDatabaseName,
  READ_FROM_DATABASE,
  requireServer,
  root,
  rssMb,
  runMain,
  sleep,
  startProcess,
  startServer,
  stopProcess,
  withPgClient,
} from './lib.mjs';
import {
  benchEachDatabase,
  benchSteps,
  CONNECTIONS,
  countXlsxRows,
  downloadMeasured,
  fmt,
  LOAD_SECONDS,
  num,
  suffixedDbUrl,
  watchRss,
  writeReport,
} from './measure.mjs';
import {
  EXPORT_FILTER,
  IMPORT_HOUSEHOLD_PREFIX,
  IMPORT_ROWS,
  mixedQueries,
  seedPglite,
  seedPostgres,
  VILLAGERS,
} from './village-seed.mjs';
import { villageTable } from './village-table.mjs';

installExitHandlers();
const log = makeLog('village');
const { measureRoute, drain, step } = benchSteps(log);

const dataRoot = resolve(process.env.BENCH_DATA ?? join(root, '.bench-data'));
const DATABASE_URL = process.env.DATABASE_URL || '';
const VILLAGE_DATABASE_URL =
  process.env.VILLAGE_DATABASE_URL || (DATABASE_URL ? suffixedDbUrl(DATABASE_URL, '_village') : '');
const bareMain = join(here, 'bare-village-server.mjs');
const ExcelJS = requireServer('exceljs');

const API = '/api/dfem-hope-manage/villager';
/**
 * The two searches of workload 1: 第三村民小组's women (the list's selects; 1 villager in 10), and a full
 * name typed into the search box (the engine matches it anywhere in the name: `ilike '%…%'`).
 */
const SEARCHES = {
  groupSex: { filter: 'villageGroup=3&sex=2', label: 'group + sex' },
  name: { filter: `name=${encodeURIComponent('王建国')}`, label: 'name' },
};
const pageUrl = (filter) => `${API}/page?current=1&size=10&${filter}`;

const MIX = mixedQueries();

/**
 * The mixed load on `base` + `prefix` + a query of MIX, after the morning's first requests: the first page of
 * each distinct filter of the mix asked once (four at a time), then a few seconds at 10 connections.
 */
async function measureMix(label, base, prefix, headers) {
  const paths = MIX.map((q) => `${prefix}?${q}`);
  const filters = [...new Set(MIX.map((q) => q.replace(/^current=\d+&size=\d+&?/, '')))];
  const t0 = performance.now();
  const queue = [...filters];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
        const res = await fetch(`${base}${prefix}?current=1&size=10${f ? `&${f}` : ''}`, { headers });
        await res.arrayBuffer();
      }
    }),
  );
  log(
    `${label}: the first page of each of ${filters.length} filters asked once in ${fmt.s((performance.now() - t0) / 1000)}`,
  );
  await load(base, headers, 3, 10, paths);
  const r = await load(base, headers, LOAD_SECONDS, CONNECTIONS, paths);
  log(
    `${label}: ${MIX.length} distinct queries at ${CONNECTIONS} connections, ${r.rps.toFixed(0)} req/s, ` +
      `p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.total} requests` +
      (r.bad ? `, ${r.bad}` : ''),
  );
  return { ...r, filters: filters.length };
}
const barePageUrl = (filter) => `/bare/villager/page?current=1&size=10&${filter}`;
const IMPORTED_PAGE = `${API}/page?current=1&size=1&householdNo_like=${IMPORT_HOUSEHOLD_PREFIX}`;
/**
 * A search whose one request takes longer than this gets no load: the 50 requests autocannon leaves in flight
 * would keep the server busy for 40 s or more after it (PGlite runs one query at a time). Its bare route does
 * as the real one did, so that the two are compared under the same load.
 */
const MAX_SINGLE_MS = 800;
/** how often the web's import dialog asks for the server's progress (apps/web/src/platform/crud/ExcelToolbar.tsx) */
const PROGRESS_POLL_MS = 400;

// ---------------------------------------------------------------------------------------------------------
// workload 1: the filtered page, real and bare

/**
 * How many turns each side of the comparison gets where both run at once (PostgreSQL): the real page and
 * the bare one are measured back to back, TURNS times, the order swapped every turn (real then bare, bare
 * then real …), and each side is reported by its median turn (throughput and one-at-a-time taken
 * separately). The ratios are the median of each turn's own ratio: this machine's throughput drifts by a
 * third from one ten-second window to the next (another process, the database's own work after the seed,
 * a neighbour of the virtual machine), and two windows side by side share most of it, so a turn's ratio
 * holds still where the two sides' medians, taken from different windows, do not.
 */
const TURNS = Math.max(1, Number(process.env.BENCH_TURNS) || 5);

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length % 2
    ? sorted[(sorted.length - 1) / 2]
    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
};

/** the median turn of one route: the median throughput's row, with the median one-at-a-time */
function medianTurn(turns) {
  const mid = (xs) => xs[Math.floor((xs.length - 1) / 2)];
  const measured = turns.filter((t) => !t.skipped);
  const single = mid(turns.map((t) => t.single).sort((a, b) => a - b));
  if (!measured.length) return { ...turns[0], single };
  return { ...mid([...measured].sort((a, b) => a.rps - b.rps)), single, turns: turns.length };
}

/**
 * The filtered pages as the product answers them with the read cache off, and, given the bare server
 * (PostgreSQL), the bare route's in turns with them; without it the bare route is measured after (barePages).
 */
async function realPages(server, out, label, bare) {
  // a new database: the seeded password changes once. Asked uncompressed, as autocannon asks and as the bare
  // route answers: the ratio is the engine's cost, not the compressor's (the bytes rows of run.mjs show that)
  const headers = {
    ...authHeaders(await adminSession(server.base)),
    'accept-encoding': 'identity',
  };
  out.realPage = {};
  if (bare) out.bareSame = {};
  for (const [key, s] of Object.entries(SEARCHES)) {
    await step(out, key, `${label} page (${s.label})`, async () => {
      const url = server.base + pageUrl(s.filter);
      const page = (await getJson(url, headers)).data;
      out.realPage[key] = page;
      log(
        `${label}: the villager page filtered on ${s.label} (${decodeURIComponent(s.filter)}) counts ${page.total}`,
      );
      if (!page.total) out.errors[key] = 'the filter matched no villager';
      const bareKey = `bare_${key}`;
      const bareUrl = bare && bare.base + barePageUrl(s.filter);
      if (bare) await compareBare(out, key, bareUrl, label);
      const realTurns = [];
      const bareTurns = [];
      const measureReal = async (of) => {
        const real = await measureRoute(`${label} page (${s.label})${of}`, url, headers, {
          maxSingleMs: MAX_SINGLE_MS,
        });
        realTurns.push(real);
        if ((await drain(`${label} page (${s.label})`, url, headers, 60_000)) === null)
          throw new Error('the server did not finish the page requests left in flight within 60 s');
        return real;
      };
      const measureBare = async (of) => {
        // the real page got no load (one request too slow): neither does the bare one
        const maxSingleMs = realTurns[0]?.skipped ? 0 : Number.POSITIVE_INFINITY;
        const b = await measureRoute(`${label} bare page (${s.label})${of}`, bareUrl, {}, { maxSingleMs });
        bareTurns.push(b);
        await drain(`${label} bare page (${s.label})`, bareUrl, {}, 60_000);
        return b;
      };
      const ratios = [];
      for (let turn = 1; turn <= (bare ? TURNS : 1); turn++) {
        const of = bare ? ` turn ${turn}/${TURNS}` : '';
        if (!bare) {
          await measureReal(of);
          continue;
        }
        // the first turn measures the real page first (its one-request check decides the load of both)
        const bareFirst = turn % 2 === 0;
        const b0 = bareFirst ? await measureBare(of) : undefined;
        const real = await measureReal(of);
        const b = b0 ?? (await measureBare(of));
        const ratio = { rps: real.rps / b.rps, single: b.single / real.single };
        ratios.push(ratio);
        log(
          `${label} page (${s.label})${of}: real / bare ${ratio.rps.toFixed(2)} at 50 connections, ` +
            `${ratio.single.toFixed(2)} one at a time`,
        );
      }
      out[key] = medianTurn(realTurns);
      if (bare) {
        out[bareKey] = medianTurn(bareTurns);
        const measured = ratios.filter((r) => Number.isFinite(r.rps));
        out[`ratio_${key}`] = {
          rps: measured.length ? median(measured.map((r) => r.rps)) : undefined,
          single: median(ratios.map((r) => r.single)),
          turns: ratios.length,
        };
      }
    });
  }
}

/** The pages again with the read cache on (the default): after the first request, memory answers. */
async function rememberedPages(server, out, label) {
  const headers = authHeaders(await adminSession(server.base));
  for (const [key, s] of Object.entries(SEARCHES)) {
    await step(out, `${key}Remembered`, `${label} remembered page (${s.label})`, async () => {
      const url = server.base + pageUrl(s.filter);
      await getJson(url, headers);
      out[`${key}Remembered`] = await measureRoute(`${label} remembered page (${s.label})`, url, headers);
    });
  }
}

/** The bare server (bench/bare-village-server.mjs) on the villagers' database or PGlite folder. */
async function startBare(isPg, url, pgdata) {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port) };
  delete env.DATABASE_URL;
  delete env.PGLITE_DIR;
  if (isPg) env.DATABASE_URL = url;
  else env.PGLITE_DIR = pgdata;
  const bare = await startProcess('bare server', bareMain, env, port, '/ready');
  return { ...bare, base: `http://127.0.0.1:${port}` };
}

/** Whether the bare route answers the rows the real page answered (its SQL kept in sync with the engine). */
async function compareBare(out, key, bareUrl, label) {
  const bp = await getJson(bareUrl);
  const real = out.realPage?.[key];
  if (!real) return;
  out.bareSame ??= {};
  const ids = (p) => p.records.map((r) => String(r.id)).join();
  out.bareSame[key] = bp.total === real.total && ids(bp) === ids(real);
  if (!out.bareSame[key]) {
    log(
      `WARNING ${label}: the bare route's answer (${SEARCHES[key].label}) differs from the real one ` +
        `(total ${bp.total} vs ${real.total}): is its SQL in sync?`,
    );
    out.errors[`bare_${key}`] = 'the bare route answered other rows than the real one';
  }
}

/** The same SQL behind the bare route, on the same data, while no server has it (one PGlite folder, one process). */
async function barePages(isPg, url, pgdata, out, label) {
  const bare = await startBare(isPg, url, pgdata);
  try {
    for (const [key, s] of Object.entries(SEARCHES)) {
      const bareKey = `bare_${key}`;
      await step(out, bareKey, `${label} bare page (${s.label})`, async () => {
        const url = bare.base + barePageUrl(s.filter);
        await compareBare(out, key, url, label);
        const maxSingleMs = !out[key] ? MAX_SINGLE_MS : out[key].skipped ? 0 : Number.POSITIVE_INFINITY;
        out[bareKey] = await measureRoute(`${label} bare page (${s.label})`, url, {}, { maxSingleMs });
        await drain(`${label} bare page (${s.label})`, url, {}, 60_000);
      });
    }
    await step(out, 'bare_mix', `${label} bare mixed pages`, async () => {
      out.bare_mix = await measureMix(`${label} bare mixed pages`, bare.base, '/bare/villager/page', {});
      await drain(`${label} bare mixed pages`, bare.base + barePageUrl(SEARCHES.groupSex.filter), {}, 60_000);
    });
  } finally {
    await stopProcess(bare);
  }
}

// ---------------------------------------------------------------------------------------------------------
// workloads 2 and 3: Excel

async function exportWorkload(server, headers, out, label, dataDir) {
  const expected = (await getJson(`${server.base}${API}/page?current=1&size=1&${EXPORT_FILTER}`, headers))
    .data.total;
  log(`${label}: the export's filter (${EXPORT_FILTER}) selects ${expected} villagers`);
  const file = join(dataDir, 'export.xlsx');
  const { seconds, bytes, ...mem } = await downloadMeasured(
    server,
    `${API}/excel/export?${EXPORT_FILTER}`,
    headers,
    file,
    'excel/export',
  );
  const { rows, header } = await countXlsxRows(file);
  rmSync(file, { force: true });
  out.export = { seconds, rows, expected, bytes, ...mem };
  log(
    `${label} export: ${rows} rows (${expected} expected), ${(bytes / 1048576).toFixed(1)} MB in ${seconds.toFixed(1)} s; ` +
      `server RSS ${mem.baseline.toFixed(0)} → peak ${mem.peak.toFixed(0)} MB; header ${header?.join('|')}`,
  );
  if (rows !== expected) out.errors.export = `the file holds ${rows} rows, the page counts ${expected}`;
}

const IMPORT_SURNAMES = '赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张';
const IMPORT_MALE = '建国志强海军伟明';
const IMPORT_FEMALE = '秀英桂兰丽娟玉梅';
const GROUPS = [
  '第一村民小组',
  '第二村民小组',
  '第三村民小组',
  '第四村民小组',
  '第五村民小组',
  '第六村民小组',
];
const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const pad = (n, w) => String(n).padStart(w, '0');
/** the GB 11643 check character (packages/contracts/src/resource/validate.ts, idCardCheckDigit) */
const checkDigit = (first17) =>
  '10X98765432'[[...first17].reduce((sum, d, i) => sum + Number(d) * ID_WEIGHTS[i], 0) % 11];

/**
 * Villager i of the import file, by the template's (Chinese) column headers: households of four under
 * IMP-00000…, valid ID numbers (region 4401xx, which no seeded villager has) whose birth date and sex the
 * row's own columns repeat, valid mobile numbers, dictionary labels as the template lists them.
 */
function importRow(i) {
  const sex = i % 4 === 0 ? 1 : i % 4 === 1 ? 2 : (i % 2) + 1;
  const birth = new Date(Date.UTC(1950, 0, 1) + ((i * 7919) % 21_900) * 86_400_000);
  const ymd = birth.toISOString().slice(0, 10);
  // the region's last two digits and the sequence number spell i; the sequence's parity is the sex
  const first17 = `4401${pad(Math.floor(i / 500), 2)}${ymd.replaceAll('-', '')}${pad((i % 500) * 2 + (sex === 1 ? 1 : 0), 3)}`;
  const household = Math.floor(i / 4);
  const given = sex === 1 ? IMPORT_MALE : IMPORT_FEMALE;
  const age = 2026 - birth.getUTCFullYear();
  const yesNo = (b) => (b ? '是' : '否');
  return {
    姓名:
      IMPORT_SURNAMES[household % IMPORT_SURNAMES.length] +
      given[i % given.length] +
      given[(i >> 3) % given.length],
    性别: sex === 1 ? '男' : '女',
    民族: i % 20 === 0 ? '土家族' : '汉族',
    身份证号: first17 + checkDigit(first17),
    联系电话: age >= 18 ? `139${pad(i, 8)}` : '',
    出生日期: ymd,
    户号: `${IMPORT_HOUSEHOLD_PREFIX}${pad(household, 5)}`,
    与户主关系: ['户主', '配偶', '子女', '子女'][i % 4],
    村民小组: GROUPS[household % GROUPS.length],
    住址: `青山村新区${household + 1}号`,
    政治面貌: i % 11 === 0 ? '中共党员' : '群众',
    文化程度: age < 12 ? '小学' : ['初中', '高中/中专', '初中', '大专'][i % 4],
    婚姻状况: age >= 25 ? '已婚' : '未婚',
    劳动力状况: age > 60 ? '弱劳动力' : '普通劳动力',
    脱贫户: yesNo(household % 10 === 3),
    低保户: yesNo(household % 16 === 0),
    残疾: yesNo(i % 33 === 0),
    退役军人: yesNo(sex === 1 && i % 29 === 0),
    独居老人: '否',
    备注: i % 50 === 0 ? '批量导入' : '',
  };
}

/** The template's columns, read off the template the server hands out (what a clerk downloads and fills in). */
async function templateHeaders(server, headers) {
  const res = await fetch(`${server.base}${API}/excel/template`, { headers });
  if (!res.ok) throw new Error(`excel/template: ${res.status} ${(await res.text()).slice(0, 300)}`);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer());
  const names = wb.worksheets[0].getRow(1).values.slice(1).map(String);
  const known = Object.keys(importRow(0));
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length)
    throw new Error(`the template has columns the bench does not fill: ${unknown.join(', ')}`);
  return names;
}

let importFile;
async function importWorkbook(columns) {
  if (importFile) return importFile;
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Sheet1');
  sheet.addRow(columns);
  for (let i = 0; i < IMPORT_ROWS; i++) {
    const row = importRow(i);
    sheet.addRow(columns.map((c) => row[c]));
  }
  importFile = Buffer.from(await wb.xlsx.writeBuffer());
  log(
    `import file: ${IMPORT_ROWS} rows × ${columns.length} columns, ${(importFile.length / 1024).toFixed(0)} KB`,
  );
  return importFile;
}

async function importWorkload(server, headers, out, label) {
  const buf = await importWorkbook(await templateHeaders(server, headers));
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(buf)]), 'villagers.xlsx');
  // as the web's import dialog: a key of its own, and the server's progress asked for while the file is checked
  const key = `bench-${Date.now().toString(36)}`;
  const phases = {};
  // how long a progress request waited for its answer, at worst: while the server's event loop is busy
  // (reading the workbook, checking the rows) it answers nothing, neither the progress nor anyone else
  let slowestPoll = 0;
  const stop = watchRss(server.child.pid);
  const t0 = performance.now();
  let polling = true;
  const poller = (async () => {
    while (polling) {
      await sleep(PROGRESS_POLL_MS);
      try {
        const asked = performance.now();
        const p = (await getJson(`${server.base}${API}/excel/progress?key=${key}`, headers)).data;
        slowestPoll = Math.max(slowestPoll, (performance.now() - asked) / 1000);
        if (p && phases[p.phase] === undefined) phases[p.phase] = (performance.now() - t0) / 1000;
      } catch {
        /* the import's own answer reports failures */
      }
    }
  })();
  let answer;
  let text;
  let mem;
  try {
    answer = await fetch(`${server.base}${API}/excel/import?progressKey=${key}`, {
      method: 'POST',
      headers,
      body: form,
    });
    text = await answer.text();
  } finally {
    mem = stop();
    polling = false;
    await poller;
  }
  const seconds = (performance.now() - t0) / 1000;
  if (!answer.ok) throw new Error(`excel/import: ${answer.status} ${text.slice(0, 500)}`);
  const result = JSON.parse(text).data;
  const page = (await getJson(server.base + IMPORTED_PAGE, headers)).data;
  out.import = { seconds, result, listed: page.total, phases, slowestPoll, ...mem };
  const seen = Object.entries(phases)
    .map(([phase, s]) => `${phase} at ${s.toFixed(1)} s`)
    .join(', ');
  log(
    `${label} import: ${JSON.stringify(result)} in ${seconds.toFixed(1)} s (progress: ${seen || 'none seen'}; ` +
      `slowest progress answer ${slowestPoll.toFixed(1)} s); ` +
      `the page lists ${page.total} villagers of ${IMPORT_HOUSEHOLD_PREFIX}* households ` +
      `(${page.records[0]?.name}, ${page.records[0]?.idCard}); server RSS ${mem.baseline.toFixed(0)} → peak ${mem.peak.toFixed(0)} MB`,
  );
  if (result?.created !== IMPORT_ROWS || page.total !== IMPORT_ROWS)
    out.errors.import = `${result?.created} created, the page lists ${page.total}, ${IMPORT_ROWS} expected`;
}

// ---------------------------------------------------------------------------------------------------------
// one database

async function benchDatabase(kind, out) {
  const url = kind === 'postgres' ? VILLAGE_DATABASE_URL : undefined;
  const dataDir = join(dataRoot, `village-${kind}`);
  // a migrated and seeded database, seeded while no server runs
  const { isPg, label, pgdata } = await migratedDatabase(kind, url, dataDir);
  if (isPg) await withPgClient(url, (c) => seedPostgres(c, log));
  else await seedPglite(pgdata, log);

  // 1. the filtered pages read from the database on every request, on a server of their own: on a slow
  // database the requests autocannon leaves in flight keep it busy long after the load
  // (PostgreSQL serves the bare route at the same time: the two are measured in turns)
  {
    const server = await startServer(dataDir, url, undefined, READ_FROM_DATABASE);
    const bare = isPg ? await startBare(isPg, url, pgdata) : undefined;
    try {
      log(`${label}: server (pid ${server.child.pid}, READ_CACHE=false) answering after ${server.ms} ms`);
      await realPages(server, out, label, bare);
    } finally {
      await stopProcess(server);
      if (bare) await stopProcess(bare);
    }
  }
  if (!isPg) await step(out, 'bare', `${label} bare`, () => barePages(isPg, url, pgdata, out, label));
  // the same pages as the product answers them: remembered until the villagers change
  {
    const server = await startServer(dataDir, url);
    const bare = isPg ? await startBare(isPg, url, pgdata) : undefined;
    try {
      await rememberedPages(server, out, label);
      // the mixed load: the product (remembered pages) and, on PostgreSQL, the bare route beside it
      const headers = authHeaders(await adminSession(server.base));
      await step(out, 'mix', `${label} mixed pages`, async () => {
        out.mix = await measureMix(`${label} mixed pages`, server.base, `${API}/page`, headers);
        await drain(`${label} mixed pages`, server.base + pageUrl(SEARCHES.groupSex.filter), headers, 60_000);
      });
      if (bare)
        await step(out, 'bare_mix', `${label} bare mixed pages`, async () => {
          out.bare_mix = await measureMix(`${label} bare mixed pages`, bare.base, '/bare/villager/page', {});
        });
    } finally {
      await stopProcess(server);
      if (bare) await stopProcess(bare);
    }
  }

  // 2 and 3 on a fresh server
  const server = await startServer(dataDir, url);
  try {
    log(`${label}: server (pid ${server.child.pid}) answering after ${server.ms} ms`);
    const headers = authHeaders(await adminSession(server.base));
    await step(out, 'export', `${label} export`, () => exportWorkload(server, headers, out, label, dataDir));
    await step(out, 'import', `${label} import`, () => importWorkload(server, headers, out, label));
    out.rssMb = rssMb(server.child.pid);
  } finally {
    await stopProcess(server);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------

async function main() {
  assertServerBuilt();
  const pgName = pgDatabaseName(VILLAGE_DATABASE_URL);
  log(
    `data in ${dataRoot}/village-*; ${num(VILLAGERS)} villagers; ${LOAD_SECONDS} s per route at ${CONNECTIONS} ` +
      `connections; PostgreSQL ${VILLAGE_DATABASE_URL ? `on (database ${pgName})` : 'off (set DATABASE_URL)'}`,
  );
  const run = await benchEachDatabase(VILLAGE_DATABASE_URL, benchDatabase, log);
  writeReport({
    file: 'last-village.md',
    title: '# Benchmark village affairs, last run',
    facts: `${num(VILLAGERS)} seeded villagers, export filter ${EXPORT_FILTER} · PostgreSQL database ${pgName || '—'}`,
    table: villageTable(run.results, TURNS),
    extra: [
      'Real and bare are both asked for uncompressed answers, one at a time as under load (autocannon asks ' +
        'for no encoding): the ratios are the engine’s cost, not the compressor’s.',
    ],
    run,
    logTo: log,
  });
}

await runMain(main, log);
