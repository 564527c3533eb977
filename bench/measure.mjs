// The measuring half of the bench helpers (lib.mjs is the other: processes, servers, databases, the API):
// the measuring steps of a route, a process's peak memory, a download, an exported file's rows; the results
// table, the machine line under it, the run over each database and the report file.
import { createWriteStream, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { elapsed, here, load, makeLog, requireServer, rssMb, withPgClient } from './lib.mjs';

const log = makeLog('bench');
// ---------------------------------------------------------------------------------------------------------
// measuring (bench/workloads.mjs, bench/village.mjs)

/** seconds of load per route (BENCH_SECONDS, default 10) and autocannon's connections */
export const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = 50;
const RSS_POLL_MS = 50;

/** The measuring steps, logging with the caller's `log` (makeLog). */
export function benchSteps(log) {
  /**
   * One request at a time first (at least 5, for at least 2 s, at most 15 s): the latency without
   * concurrency, and the warm-up. Then autocannon at 50 connections, unless one request takes longer than
   * `maxSingleMs`: then the requests it would leave in flight would keep the server busy for minutes, and the
   * answer says `skipped` (the reason) instead.
   */
  async function measureRoute(label, url, headers, { maxSingleMs = Number.POSITIVE_INFINITY } = {}) {
    const times = [];
    const t0 = performance.now();
    const spent = () => performance.now() - t0;
    while ((times.length < 5 || spent() < 2_000) && spent() < 15_000) {
      const t = performance.now();
      const res = await fetch(url, { headers });
      const body = await res.text();
      if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${body.slice(0, 300)}`);
      times.push(performance.now() - t);
    }
    // the median of the later half: the first requests also warm the server up (JIT, caches, plans)
    const warm = times.slice(Math.floor(times.length / 2)).sort((a, b) => a - b);
    const single = warm[Math.floor(warm.length / 2)];
    if (single > maxSingleMs) {
      const skipped = `no load: one request takes ${single.toFixed(0)} ms`;
      log(`${label}: one at a time ${single.toFixed(1)} ms (median of the last ${warm.length}); ${skipped}`);
      return { single, skipped };
    }
    const r = await load(url, headers, LOAD_SECONDS, CONNECTIONS);
    log(
      `${label}: one at a time ${single.toFixed(1)} ms (median of the last ${warm.length}); at ${CONNECTIONS} connections ` +
        `${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.total} requests` +
        (r.bad ? `, ${r.bad}` : ''),
    );
    return { ...r, single };
  }

  /**
   * The server still works through the requests autocannon left in flight (a closed connection does not stop
   * a query): one more request answers once they are done. Waits at most `capMs`; the ms it took, or null.
   */
  async function drain(label, url, headers, capMs) {
    const t0 = performance.now();
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(capMs) });
      await res.arrayBuffer();
      const ms = performance.now() - t0;
      if (ms > 1_000) log(`${label}: the requests left in flight took ${(ms / 1000).toFixed(1)} s to finish`);
      return ms;
    } catch {
      log(`${label}: still busy with the requests left in flight after ${capMs / 1000} s`);
      return null;
    }
  }

  /** Runs one workload; a failure is recorded under `key` and the other workloads still run. */
  async function step(out, key, label, fn) {
    try {
      await fn();
    } catch (err) {
      log(`${label} FAILED: ${err.stack ?? err}`);
      out.errors[key] = String(err.message ?? err).split('\n')[0];
    }
  }

  return { measureRoute, drain, step };
}

/** Samples a process's VmRSS every 50 ms until stopped; the peak and the first sample (the baseline). */
export function watchRss(pid) {
  const baseline = rssMb(pid);
  let peak = baseline;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      /* the process is gone: the caller's request fails and says so */
    }
  }, RSS_POLL_MS);
  return () => {
    clearInterval(timer);
    peak = Math.max(peak, rssMb(pid));
    return { baseline, peak };
  };
}

/**
 * GETs `path` of the server into `file` (an export): seconds, bytes and the server's memory meanwhile
 * (watchRss). `what` names the route in the error of a refused download.
 */
export async function downloadMeasured(server, path, headers, file, what) {
  const stop = watchRss(server.child.pid);
  const t0 = performance.now();
  let mem;
  try {
    const res = await fetch(`${server.base}${path}`, { headers });
    if (!res.ok) throw new Error(`${what}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    await pipeline(Readable.fromWeb(res.body), createWriteStream(file));
  } finally {
    mem = stop();
  }
  return { seconds: (performance.now() - t0) / 1000, bytes: statSync(file).size, ...mem };
}

/** Rows of the first sheet, read back with exceljs's streaming reader (the whole file never sits in memory). */
export async function countXlsxRows(file) {
  const ExcelJS = requireServer('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    sharedStrings: 'cache',
    styles: 'ignore',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  let rows = 0;
  let header;
  for await (const sheet of reader) {
    for await (const row of sheet) {
      if (!header) header = row.values.slice(1).map(String);
      rows++;
    }
  }
  return { rows: rows - 1, header };
}

// ---------------------------------------------------------------------------------------------------------
// the table: one row per measurement, a PGlite and a PostgreSQL column, the target and whether it is met

/** bytes as KB with one decimal */
export const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
export const num = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
export const fmt = {
  lat: (n) => `${Number(n).toFixed(n < 10 ? 2 : 1)} ms`,
  rps: (n) => `${num(Math.round(n))} req/s`,
  ratio: (n) => n.toFixed(2),
  s: (n) => `${n.toFixed(1)} s`,
  mb: (n) => `${n.toFixed(0)} MB`,
};

/** The table rows of an Excel export measured by downloadMeasured (under `export`): seconds, then peak memory. */
export const excelExportRows = (what) => [
  {
    name: `Excel export of ${what}: seconds to download the whole file`,
    src: 'export',
    get: (r) => r.export?.seconds,
    f: (v, r) => `${fmt.s(v)} (${num(r.export.rows)} rows, ${(r.export.bytes / 1048576).toFixed(1)} MB)`,
  },
  peakMemoryRow('Excel export', 'export'),
];

/** The table row of the server's peak resident memory during the measurement under `src` ({ peak, baseline }). */
export function peakMemoryRow(what, src) {
  return {
    name: `${what}: server peak resident memory (peak − baseline)`,
    src,
    get: (r) => r[src]?.peak,
    f: (v, r) => `${fmt.mb(v)} (+${fmt.mb(v - r[src].baseline)})`,
  };
}

/**
 * The markdown table of `res` ({ pglite, postgres }: each { errors, error?, …measurements }). A row is
 * { name, get(r) → number, f(value, r) → text, src? (the key of its measurement and of its error),
 * load? (autocannon's non-2xx and timeouts are shown, and why there was no load), suspect?(r), target?,
 * ok?(value, r), only? ('postgres') }; or, for a measurement outside the databases' runs, { name, cells:
 * { pglite, postgres } (each { value?, suspect?, text }), target?, ok? }.
 */
export function buildTable(rows, res) {
  const lines = ['| measurement | PGlite | PostgreSQL | target | ok? |', '|---|---|---|---|---|'];
  for (const row of rows) {
    const cells = {};
    for (const kind of ['pglite', 'postgres']) {
      if (row.cells) {
        cells[kind] = row.cells[kind];
        continue;
      }
      const r = res[kind];
      if (!r) {
        cells[kind] = { text: kind === 'postgres' ? 'not run (no DATABASE_URL)' : 'not run' };
        continue;
      }
      const v = row.get(r);
      const err = row.src && r.errors?.[row.src];
      const bad = row.load && r[row.src]?.bad;
      if (v === undefined || Number.isNaN(v)) {
        const skipped = row.load && r[row.src]?.skipped;
        cells[kind] = { text: err || r.error ? 'error' : skipped || 'n/a' };
        continue;
      }
      const warn = [bad, err].filter(Boolean).join('; ');
      cells[kind] = {
        value: v,
        suspect: Boolean(warn) || Boolean(row.suspect?.(r)),
        text: row.f(v, r) + (warn ? ` (${warn}!)` : ''),
      };
    }
    let ok = '—';
    if (row.ok) {
      const judged = ['pglite', 'postgres']
        .filter((k) => !row.only || row.only === k)
        .map((k) => ({ k, v: cells[k].value, suspect: cells[k].suspect, r: res[k] }))
        .filter((c) => c.v !== undefined);
      if (!judged.length) ok = 'n/a';
      else {
        const failed = judged
          .filter((c) => !row.ok(c.v, c.r))
          .map((c) => (c.k === 'pglite' ? 'PGlite' : 'PostgreSQL'));
        ok = failed.length
          ? `❌ ${failed.join(', ')}`
          : judged.some((c) => c.suspect)
            ? '⚠ see the cell'
            : '✅';
      }
    }
    lines.push(
      `| ${row.name} | ${cells.pglite.text} | ${cells.postgres.text} | ${row.target ?? '—'} | ${ok} |`,
    );
  }
  return lines.join('\n');
}

/** The lines under the table: every failure of a run, by database and workload. */
export function failureNotes(results) {
  const notes = [];
  for (const [kind, r] of Object.entries(results)) {
    if (r.error) notes.push(`- ${kind}: ${r.error.split('\n')[0]}`);
    for (const [k, e] of Object.entries(r.errors)) notes.push(`- ${kind}, ${k}: ${e}`);
  }
  return notes;
}

/** The machine and its load: the machine may be shared, and the load around a run says how far to trust it. */
export function machineLine(loadAtStart) {
  return (
    `${availableParallelism()} cores, load average (1 min) ${loadAtStart.toFixed(1)} at the start, ` +
    `${loadavg()[0].toFixed(1)} at the end`
  );
}

/**
 * Runs `bench(kind, out)` on PGlite, then on PostgreSQL when `url` is set. Each run's `out` ({ errors, … })
 * is kept even when the run failed, so what it measured still reaches the table. The load average at the
 * start is taken for the report's machine line.
 */
export async function benchEachDatabase(url, bench, logTo = log) {
  const loadAtStart = loadavg()[0];
  const results = {};
  const failed = [];
  // BENCH_DATABASES=postgres (or pglite) runs one of the two
  const kinds = (url ? ['pglite', 'postgres'] : ['pglite']).filter(
    (k) => !process.env.BENCH_DATABASES || process.env.BENCH_DATABASES.split(',').includes(k),
  );
  for (const kind of kinds) {
    results[kind] = { errors: {} };
    try {
      await bench(kind, results[kind]);
    } catch (err) {
      logTo(`${kind} FAILED: ${err.stack ?? err}`);
      results[kind].error = String(err.message ?? err);
    }
    if (results[kind].error || Object.keys(results[kind].errors).length) failed.push(kind);
  }
  return { results, failed, loadAtStart };
}

/**
 * The report of a run of `benchEachDatabase`: `title`, a line of what was run (`facts`, then the machine and
 * the time taken), the table, `extra` lines and the failures, written to bench/`file`; the table goes to
 * stdout, and a failed run sets the exit code.
 */
export function writeReport({ file, title, facts, table, extra = [], run, logTo = log }) {
  const seconds = elapsed();
  const machine = machineLine(run.loadAtStart);
  const notes = failureNotes(run.results);
  const md = [
    title,
    '',
    `${new Date().toISOString()} · Node ${process.version} · ${LOAD_SECONDS} s per route, ${CONNECTIONS} connections, ` +
      `autocannon in the same machine · ${facts} · ${machine} · took ${seconds} s`,
    '',
    table,
    ...(extra.length ? ['', ...extra] : []),
    ...(notes.length ? ['', ...notes] : []),
    '',
  ].join('\n');
  writeFileSync(join(here, file), md);
  process.stdout.write(`${table}\n`);
  logTo(`done in ${seconds} s; ${machine} (table also in bench/${file})`);
  if (run.failed.length) process.exitCode = 1;
}

/** A database URL with `suffix` appended to its database name (smart_bench → smart_bench_work). */
export function suffixedDbUrl(url, suffix) {
  const u = new URL(url);
  u.pathname = `/${decodeURIComponent(u.pathname.slice(1)) || 'postgres'}${suffix}`;
  return u.toString();
}

/** Bytes per stored telemetry reading: the partitions of `telemetry_reading` with their index, over the rows. */
export function telemetryBytesPerReading(url) {
  return withPgClient(url, async (c) => {
    const r = await c.query(
      `select sum(pg_total_relation_size(relid))::bigint as bytes from pg_partition_tree('telemetry_reading')`,
    );
    const n = await c.query('select count(*)::bigint as n from telemetry_reading');
    return Number(r.rows[0].bytes) / Number(n.rows[0].n);
  });
}
