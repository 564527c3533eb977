// Excel export of one village group's villagers, beside its limit (issue 41): `npm run bench` (builds first)
// or `node bench/excel-export.mjs` (uses what is built).
//
//   - the product: GET villager/excel/export?villageGroup=6&createTime_datelt=2024-12-31 through the server's
//     own route as the administrator (the access constraint, the list's filters, the file name), timed from the
//     request to the last byte on disk, with the server's resident memory sampled every 50 ms (peak − the
//     baseline before the request)
//   - the limit: the very same cells (read back from the product's file: same columns, same dictionary labels,
//     the same text) written with exceljs's streaming WorkbookWriter alone, from an array already in memory,
//     with the product's options (no styles, no shared strings, the header frozen, the column widths) into a
//     sink that only counts bytes — what any export of these rows through exceljs costs on this machine
//   - the ratio of the two (goal ≤ 1.5) and the memory (goal ≤ +100 MB)
// The two are measured in turns (EXPORT_TURNS, default 3: product, limit, product, limit …), each reported
// by its fastest turn, and the ratio is the median of each turn's own (a turn's two sides share the
// machine's load); the memory by the first export (a fresh server, which loads exceljs then) and by the
// highest peak of all over that first baseline (later exports reuse the memory the first took).
//
// Its own villagers: VILLAGERS = 10 × EXPORT_ROWS (group 6 is exactly a tenth, bench/village-seed.mjs), in
// PostgreSQL's database of DATABASE_URL with `_excel` appended (EXCEL_DATABASE_URL names another) and in
// PGlite under <BENCH_DATA>/excel-pglite; BENCH_DATABASES=postgres (or pglite) runs one of the two.
// Environment: EXPORT_ROWS (default 100 000), EXPORT_TURNS, DATABASE_URL, EXCEL_DATABASE_URL, BENCH_DATABASES,
// BENCH_DATA. Progress goes to stderr; the table to stdout and to bench/last-excel-export.md.
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import {
  adminSession,
  assertServerBuilt,
  authHeaders,
  getJson,
  installExitHandlers,
  makeLog,
  migratedDatabase,
  pgDatabaseName,
  requireServer,
  root,
  runMain,
  startServer,
  stopProcess,
  withPgClient,
} from './lib.mjs';
import {
  benchEachDatabase,
  benchSteps,
  buildTable,
  downloadMeasured,
  fmt,
  num,
  suffixedDbUrl,
  writeReport,
} from './measure.mjs';

installExitHandlers();
const log = makeLog('excel');
const { step } = benchSteps(log);

const EXPORT_ROWS = Number(process.env.EXPORT_ROWS ?? 100_000);
const TURNS = Math.max(1, Number(process.env.EXPORT_TURNS) || 3);
// the seed reads VILLAGERS when loaded: a tenth of them are the export's village group
process.env.VILLAGERS = String(EXPORT_ROWS * 10);
const { EXPORT_FILTER, seedPglite, seedPostgres, VILLAGERS } = await import('./village-seed.mjs');

const dataRoot = resolve(process.env.BENCH_DATA ?? join(root, '.bench-data'));
const DATABASE_URL = process.env.DATABASE_URL || '';
const EXCEL_DATABASE_URL =
  process.env.EXCEL_DATABASE_URL || (DATABASE_URL ? suffixedDbUrl(DATABASE_URL, '_excel') : '');
const ExcelJS = requireServer('exceljs');
const API = '/api/dfem-hope-manage/villager';

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The product's export, downloaded to `file`: seconds, bytes and the server's memory. */
function productTurn(server, headers, file) {
  return downloadMeasured(server, `${API}/excel/export?${EXPORT_FILTER}`, headers, file, 'excel/export');
}

/** The first sheet of the product's file as it was written: its name, column widths, header and rows of cells. */
async function readBack(file) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const sheet = wb.worksheets[0];
  const widths = sheet.columns.map((c) => c.width);
  const rows = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    rows.push(row.values.slice(1).map((v) => (v === undefined ? null : v)));
  });
  return { name: sheet.name, widths, header: rows[0], rows: rows.slice(1), sheets: wb.worksheets.length };
}

/** The limit: the same cells through exceljs's streaming writer alone, into a sink that counts the bytes. */
async function limitTurn(sheetData) {
  let bytes = 0;
  const sink = new Writable({
    write(chunk, _enc, cb) {
      bytes += chunk.length;
      cb();
    },
  });
  const done = new Promise((res, rej) => {
    sink.on('finish', res);
    sink.on('error', rej);
  });
  const t0 = performance.now();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: sink,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = wb.addWorksheet(sheetData.name, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = sheetData.header.map((h, i) => ({ header: h, width: sheetData.widths[i] }));
  for (const row of sheetData.rows) sheet.addRow(row).commit();
  sheet.commit();
  await wb.commit();
  await done;
  return { seconds: (performance.now() - t0) / 1000, bytes };
}

async function benchDatabase(kind, out) {
  const url = kind === 'postgres' ? EXCEL_DATABASE_URL : undefined;
  const dataDir = join(dataRoot, `excel-${kind}`);
  mkdirSync(dataDir, { recursive: true });
  const { isPg, label, pgdata } = await migratedDatabase(kind, url, dataDir);
  if (isPg) await withPgClient(url, (c) => seedPostgres(c, log));
  else await seedPglite(pgdata, log);

  const server = await startServer(dataDir, url);
  const file = join(dataDir, 'export.xlsx');
  try {
    log(`${label}: server (pid ${server.child.pid}) answering after ${server.ms} ms`);
    const headers = authHeaders(await adminSession(server.base));
    const expected = (await getJson(`${server.base}${API}/page?current=1&size=1&${EXPORT_FILTER}`, headers))
      .data.total;
    log(`${label}: the export's filter (${EXPORT_FILTER}) selects ${num(expected)} villagers`);
    await step(out, 'export', `${label} export and its limit`, async () => {
      const product = [];
      const limit = [];
      let sheetData;
      for (let turn = 1; turn <= TURNS; turn++) {
        const p = await productTurn(server, headers, file);
        product.push(p);
        log(
          `${label} export turn ${turn}/${TURNS}: ${(p.bytes / 1048576).toFixed(1)} MB in ${p.seconds.toFixed(1)} s; ` +
            `server RSS ${p.baseline.toFixed(0)} → peak ${p.peak.toFixed(0)} MB (+${(p.peak - p.baseline).toFixed(0)})`,
        );
        if (!sheetData) {
          sheetData = await readBack(file);
          log(
            `${label}: the file holds ${num(sheetData.rows.length)} rows × ${sheetData.header.length} columns ` +
              `(${sheetData.header.join('|')})`,
          );
          if (sheetData.rows.length !== expected)
            out.errors.export = `the file holds ${sheetData.rows.length} rows, the page counts ${expected}`;
        }
        const l = await limitTurn(sheetData);
        limit.push(l);
        log(
          `${label} exceljs alone turn ${turn}/${TURNS}: ${(l.bytes / 1048576).toFixed(1)} MB in ${l.seconds.toFixed(1)} s ` +
            `(product / limit ${(p.seconds / l.seconds).toFixed(2)})`,
        );
      }
      const best = (xs) => xs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
      const p = best(product);
      const l = best(limit);
      out.export = {
        seconds: p.seconds,
        bytes: p.bytes,
        rows: sheetData.rows.length,
        columns: sheetData.header.length,
        // the first export of a fresh server (it loads exceljs: ~33 MB of code) …
        growth: product[0].peak - product[0].baseline,
        peak: product[0].peak,
        baseline: product[0].baseline,
        // … and the highest peak of all turns over that same baseline: later exports reuse what it took
        peakAll: Math.max(...product.map((t) => t.peak)),
        limitSeconds: l.seconds,
        limitBytes: l.bytes,
        // each turn's own ratio (its two sides measured back to back share the machine's load), the median
        ratio: median(product.map((t, i) => t.seconds / limit[i].seconds)),
        ratios: product.map((t, i) => t.seconds / limit[i].seconds),
        turns: TURNS,
      };
    });
  } finally {
    rmSync(file, { force: true });
    await stopProcess(server);
  }
  return out;
}

function excelTable(res) {
  const rows = [
    {
      name: `Excel export of one village group's ${num(EXPORT_ROWS)} villagers (villager/excel/export): seconds to download the whole file`,
      src: 'export',
      get: (r) => r.export?.seconds,
      f: (v, r) =>
        `${fmt.s(v)} (${num(r.export.rows)} rows × ${r.export.columns} columns, ${(r.export.bytes / 1048576).toFixed(1)} MB)`,
    },
    {
      name: 'The same cells through exceljs’s streaming WorkbookWriter alone, from memory (the limit)',
      src: 'export',
      get: (r) => r.export?.limitSeconds,
      f: (v, r) => `${fmt.s(v)} (${(r.export.limitBytes / 1048576).toFixed(1)} MB)`,
    },
    {
      name: `Excel export / exceljs alone: the median of ${TURNS} turns' ratios`,
      src: 'export',
      get: (r) => r.export?.ratio,
      f: (v, r) => `${fmt.ratio(v)} (${r.export.ratios.map(fmt.ratio).join(', ')})`,
      target: '≤ 1.5',
      ok: (v) => v <= 1.5,
    },
    {
      name: 'Excel export, the first of a fresh server (exceljs loaded on first use): server resident memory, peak (growth over the baseline)',
      src: 'export',
      get: (r) => r.export?.growth,
      f: (v, r) => `${fmt.mb(r.export.peak)} (+${fmt.mb(v)})`,
      target: '≤ +100 MB',
      ok: (v) => v <= 100,
    },
    {
      name: `Excel export: the highest peak of all ${TURNS} exports, over the first one's baseline`,
      src: 'export',
      get: (r) => r.export?.peakAll,
      f: (v, r) => `${fmt.mb(v)} (+${fmt.mb(v - r.export.baseline)})`,
    },
  ];
  return buildTable(rows, res);
}

async function main() {
  assertServerBuilt();
  const pgName = pgDatabaseName(EXCEL_DATABASE_URL);
  log(
    `data in ${dataRoot}/excel-*; ${num(VILLAGERS)} villagers, ${num(EXPORT_ROWS)} exported; ${TURNS} turns; ` +
      `PostgreSQL ${EXCEL_DATABASE_URL ? `on (database ${pgName})` : 'off (set DATABASE_URL)'}`,
  );
  const run = await benchEachDatabase(EXCEL_DATABASE_URL, benchDatabase, log);
  writeReport({
    file: 'last-excel-export.md',
    title: '# Benchmark Excel export, last run',
    facts: `${num(VILLAGERS)} seeded villagers, export filter ${EXPORT_FILTER}, ${TURNS} turns (seconds: the fastest of each side; ratio: the median of the turns') · PostgreSQL database ${pgName || '—'}`,
    table: excelTable(run.results),
    run,
    logTo: log,
  });
}

await runMain(main, log);
