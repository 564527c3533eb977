// The points mall (积分超市) of 智慧管理系统: `npm run bench` (builds first) or `node bench/mall.mjs`.
//
//   1. Exchanges on one hot item: 50 connections, each a villager of its own with points to spare, all
//      exchanging the same goods for BENCH_SECONDS (POST exchangeList/submit, one request at a time per
//      connection, autocannon): exchanges answered 200 per second, p50 / p99, and the check that nothing
//      was oversold — the stock taken equals the exchange rows written (those answered, and those still in
//      flight when the load stopped).
//   2. One villager's balance (GET villager/wx/points: the account, what expires, the latest 20 rows) once
//      the account holds 10 000 ledger rows, one request at a time and at 50 connections.
//   On PostgreSQL the mall's tables are vacuumed before each, as autovacuum leaves them between rushes:
//   each exchange rewrites its account and its lot, and an earlier rush's dead versions (or autovacuum at
//   work on them) would be measured too.
//
// PGlite always; PostgreSQL too when DATABASE_URL is set (its own database: `_mall` appended). The demo's
// villagers are the customers. Progress goes to stderr; the table to stdout and to bench/last-mall.md.
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import {
  adminSession,
  authHeaders,
  getJson,
  installExitHandlers,
  makeLog,
  migratedDatabase,
  pgClient,
  postJson,
  root,
  runMain,
  startServer,
  stopProcess,
} from './lib.mjs';
import {
  benchEachDatabase,
  benchSteps,
  buildTable,
  CONNECTIONS,
  LOAD_SECONDS,
  num,
  suffixedDbUrl,
  writeReport,
} from './measure.mjs';

installExitHandlers();
const log = makeLog('mall');
const { measureRoute, step } = benchSteps(log);
const dataRoot = resolve(process.env.BENCH_DATA ?? join(root, '.bench-data'));
const DATABASE_URL = process.env.DATABASE_URL || '';
const MALL_DATABASE_URL = DATABASE_URL ? suffixedDbUrl(DATABASE_URL, '_mall') : '';
const webDist = join(root, 'apps', 'web', 'dist');
const API = '/api/dfem-hope-manage';
const LEDGER_ROWS = 10_000;
const BALANCE_WARM_UP = 300;

/** Runs `n` calls of `fn(i)`, `width` at a time. */
async function pool(n, width, fn) {
  let next = 0;
  const worker = async () => {
    while (next < n) await fn(next++);
  };
  await Promise.all(Array.from({ length: Math.min(width, n) }, worker));
}

async function bench(kind, out) {
  const isPg = kind === 'postgres';
  const dataDir = join(dataRoot, `mall-${kind}`);
  const db = await migratedDatabase(kind, MALL_DATABASE_URL, dataDir, webDist);
  const server = await startServer(dataDir, isPg ? MALL_DATABASE_URL : undefined, webDist);
  try {
    const headers = authHeaders(await adminSession(server.base));
    const get = (path) => getJson(`${server.base}${API}${path}`, headers);
    const post = (path, body) => postJson(`${server.base}${API}${path}`, headers, body);
    // the database as autovacuum leaves it between rushes: the rows every exchange rewrites (the accounts,
    // their lots) carry no dead versions of an earlier run, and no vacuum runs beside the measurement
    const atRest = async () => {
      if (!isPg) return;
      const c = await pgClient(MALL_DATABASE_URL);
      await c.query(
        'vacuum analyze hope_points_account, hope_points_record, hope_points_goods, hope_points_exchange',
      );
      await c.end();
    };
    // the customers: the demo village's heads of household, one account each
    const heads = (await get('/villager/page?current=1&size=60&relation=1')).data.records.map((r) => r.id);
    if (heads.length < CONNECTIONS + 1) throw new Error(`only ${heads.length} heads of household`);
    const [reader, ...buyers] = heads.slice(0, CONNECTIONS + 1);

    await step(out, 'exchange', 'exchanges on one hot item', async () => {
      await atRest();
      log(`${db.label}: 50 villagers get points to spend`);
      await pool(buyers.length, 10, (i) =>
        get(
          `/points/record/sub?villagerId=${buyers[i]}&points=100000&reason=${encodeURIComponent('压测发放')}`,
        ),
      );
      const stock = 1_000_000;
      const goods = (
        await post('/points/goods/upsert', {
          goodsName: `压测热门商品${Date.now()}`,
          category: '1',
          pointsPrice: 1,
          stock,
          onShelf: 1,
        })
      ).data.id;
      // autocannon, as the other benches load their routes: each connection a villager of its own, one
      // exchange at a time (a client that costs the server's two cores less than fetch does)
      let connection = 0;
      const r = await autocannon({
        url: `${server.base}${API}/exchangeList/submit`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        connections: buyers.length,
        duration: LOAD_SECONDS,
        pipelining: 1,
        setupClient: (client) => {
          const villagerId = buyers[connection++ % buyers.length];
          client.setBody(JSON.stringify({ villagerId, goodsId: goods, quantity: 1 }));
        },
      });
      const ok = r['2xx'];
      const refused = r.non2xx;
      // autocannon gives up on a request after 10 s (PGlite's one connection under 50)
      const timedOut = r.timeouts;
      // the requests autocannon left in flight are still written: the rows are counted once they stop growing
      const rowsNow = async () =>
        (await get(`/exchangeList/page?current=1&size=1&goodsId=${goods}`)).data.total;
      let exchanges = await rowsNow();
      for (let again = -1; again !== exchanges; ) {
        await new Promise((r) => setTimeout(r, 500));
        again = exchanges;
        exchanges = await rowsNow();
      }
      const left = (await get(`/points/goods/detail?id=${goods}`)).data.stock;
      out.exchange = {
        rps: ok / LOAD_SECONDS,
        p50: r.latency.p50,
        p99: r.latency.p99,
        ok,
        refused,
        timedOut,
        oversold: stock - left - exchanges,
        rows: exchanges,
      };
      log(
        `${db.label}: ${ok} exchanges in ${LOAD_SECONDS} s (${(ok / LOAD_SECONDS).toFixed(0)}/s), ${refused} refused, ` +
          `stock ${stock} → ${left}, rows ${exchanges}`,
      );
    });
    await step(out, 'balance', 'balance with 10 000 ledger rows', async () => {
      await atRest();
      const have = (await get(`/points/record/page?current=1&size=1&villagerId=${reader}`)).data.total;
      log(`${db.label}: the reader's account holds ${have} rows; adding ${Math.max(0, LEDGER_ROWS - have)}`);
      await pool(Math.max(0, LEDGER_ROWS - have), 20, () =>
        get(`/points/record/sub?villagerId=${reader}&points=1&reason=${encodeURIComponent('压测流水')}`),
      );
      out.ledgerRows = (await get(`/points/record/page?current=1&size=1&villagerId=${reader}`)).data.total;
      // the route warmed as the exchanges' is by their rush (measureRoute's own 2 s leave its code cold)
      for (let i = 0; i < BALANCE_WARM_UP; i++) await get(`/villager/wx/points?villagerId=${reader}`);
      out.balance = await measureRoute(
        `${db.label} wx/points (${out.ledgerRows} rows)`,
        `${server.base}${API}/villager/wx/points?villagerId=${reader}`,
        headers,
      );
    });
  } finally {
    await stopProcess(server);
  }
}

async function main() {
  const run = await benchEachDatabase(MALL_DATABASE_URL, bench, log);
  const res = run.results;
  const table = buildTable(
    [
      {
        name: 'exchanges/s, 50 connections on one hot item',
        src: 'exchange',
        get: (r) => r.exchange?.rps,
        f: (v, r) =>
          `${num(Math.round(v))}/s (p50 ${r.exchange.p50.toFixed(0)} ms, p99 ${r.exchange.p99.toFixed(0)} ms)`,
        target: '≥ 500/s on PostgreSQL',
        ok: (v) => v >= 500,
        only: 'postgres',
      },
      {
        name: 'oversold (stock taken − exchanges written)',
        src: 'exchange',
        get: (r) => r.exchange?.oversold,
        f: (v, r) =>
          `${v} (${r.exchange.ok} answered 200, ${r.exchange.rows} rows written, ${r.exchange.refused} refused, ${r.exchange.timedOut} timed out)`,
        target: '0',
        ok: (v) => v === 0,
      },
      {
        name: 'one villager’s balance, one at a time',
        src: 'balance',
        get: (r) => r.balance?.single,
        f: (v, r) => `${v.toFixed(1)} ms (${r.ledgerRows} ledger rows)`,
        target: '≤ 5 ms',
        ok: (v) => v <= 5,
      },
      {
        name: 'one villager’s balance at 50 connections',
        src: 'balance',
        load: true,
        get: (r) => r.balance?.rps,
        f: (v, r) => `${v.toFixed(0)} req/s (p50 ${r.balance.p50} ms, p99 ${r.balance.p99} ms)`,
      },
    ],
    res,
  );
  writeReport({
    file: 'last-mall.md',
    title: '# Points mall bench',
    facts: `${LEDGER_ROWS} ledger rows on the read account`,
    table,
    run,
    logTo: log,
  });
}

await runMain(main, log);
