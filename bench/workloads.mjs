// Workloads of 智慧管理系统 beyond bench/run.mjs: `npm run bench` (builds first, runs run.mjs, then this) or
// `node bench/workloads.mjs` (uses what is built).
//
//   1. GET user/page with a dept filter as a user whose role has a data scope of type 4 (own dept and below),
//      over 100 000 users, read from the database on every request (READ_CACHE=false); the same SQL behind a
//      bare Fastify route (bench/bare-scope-server.mjs): overhead ratio
//   2. Excel export of the 100 000 users (time to download, server peak memory); import of 10 000 users
//   3. leave processes through the API: start, the approver finds the task in the to-do list, approves it
//   4. the approver's to-do list with 100 000 finished tasks in its history
//
// PGlite always; PostgreSQL too when DATABASE_URL is set. Its own data, so it never disturbs run.mjs's:
// PGlite in <BENCH_DATA>/workloads-pglite, PostgreSQL in the database of DATABASE_URL with `_work` appended
// (smart_bench → smart_bench_work; created when missing; WORKLOADS_DATABASE_URL names another). Seeded rows
// are kept between runs; what a run adds (imported users, leaves) is removed before the next one.
// Progress goes to stderr; the table to stdout and to bench/last-workloads.md.
// Environment: DATABASE_URL, WORKLOADS_DATABASE_URL, BENCH_SECONDS (load per route, default 10),
// BENCH_DATA (data folder root, default <repo>/.bench-data), BENCH_LEAVES (leave processes, default 200),
// BENCH_COUNTERSIGNS (countersign instances, default 10), BENCH_ONLY=flow (only the workflow rows: leaves and
// countersigns), BENCH_DATABASES (lib.mjs: postgres or pglite for one of the two).
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  adminSession,
  assertServerBuilt,
  authHeaders,
  countersignBpmn,
  cpuSeconds,
  freePort,
  getJson,
  here,
  installExitHandlers,
  makeLog,
  migratedDatabase,
  passwordToken,
  pgDatabaseName,
  postJson,
  READ_FROM_DATABASE,
  requireServer,
  root,
  rssMb,
  runMain,
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
  excelExportRows,
  fmt,
  LOAD_SECONDS,
  buildTable as libBuildTable,
  num,
  peakMemoryRow,
  suffixedDbUrl,
  watchRss,
  writeReport,
} from './measure.mjs';
import {
  ACCOUNTS,
  DEPTS,
  HISTORY_TASKS,
  IDS,
  IMPORT_ROWS,
  LEAVE_DEFINITION,
  seedPglite,
  seedPostgres,
  USER_PASSWORD,
  USERS,
  WAITING_TASKS,
} from './workloads-seed.mjs';

installExitHandlers();
const log = makeLog('workloads');

const dataRoot = resolve(process.env.BENCH_DATA ?? join(root, '.bench-data'));
const DATABASE_URL = process.env.DATABASE_URL || '';
const WORK_DATABASE_URL =
  process.env.WORKLOADS_DATABASE_URL || (DATABASE_URL ? suffixedDbUrl(DATABASE_URL, '_work') : '');
const LEAVES = Number(process.env.BENCH_LEAVES ?? 200);
/** BENCH_ONLY=flow: only the workflow rows (leaves and countersigns) */
const ONLY_FLOW = process.env.BENCH_ONLY === 'flow';
const LEAVES_IN_FLIGHT = 4;
/** no new leave is started after this long, so the workload stays under ~30 s on a slow database */
const LEAVE_DEADLINE_MS = 25_000;
const bareMain = join(here, 'bare-scope-server.mjs');
const ExcelJS = requireServer('exceljs');
const { measureRoute, drain, step } = benchSteps(log);

/** the filter of workload 1: 运营部, which has a child (村务组); the scoped user is in 运营部 too */
const FILTER_DEPT = DEPTS.ops;
const SCOPED_PAGE = `/api/dfem-user/page?current=1&size=10&deptId=${FILTER_DEPT}`;
const BARE_PAGE = `/bare/user/scoped-page?current=1&size=10&deptId=${FILTER_DEPT}&scopeDept=${DEPTS.ops}`;
const TASKS_TO_DO_URL = '/api/dfem-flow/work/todo-list?current=1&size=10';

// ---------------------------------------------------------------------------------------------------------
// workload 2: Excel

let importFile;
/** 10 000 rows as an administrator fills the import template: imp0…imp9999, valid phones, 普通用户, 技术部. */
async function importWorkbook() {
  if (importFile) return importFile;
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Sheet1');
  sheet.addRow([
    '登录账号',
    '用户姓名',
    '用户昵称',
    '手机号码',
    '电子邮箱',
    '用户性别',
    '用户生日',
    '所属角色',
    '所属机构',
  ]);
  for (let i = 0; i < IMPORT_ROWS; i++) {
    sheet.addRow([
      `imp${i}`,
      `导入${i}`,
      `imp${i}`,
      `139${String(i).padStart(8, '0')}`,
      `imp${i}@example.com`,
      i % 2 ? '女' : '男',
      '1990-05-01',
      '普通用户',
      '技术部',
    ]);
  }
  importFile = Buffer.from(await wb.xlsx.writeBuffer());
  log(`import file: ${IMPORT_ROWS} rows, ${(importFile.length / 1024).toFixed(0)} KB`);
  return importFile;
}

async function excelWorkloads(server, admin, out, label, dataDir) {
  const headers = authHeaders(admin);
  await step(out, 'export', `${label} export`, async () => {
    const expected = (await getJson(`${server.base}/api/dfem-user/page?current=1&size=1`, headers)).data
      .total;
    const file = join(dataDir, 'export.xlsx');
    const { seconds, bytes, ...mem } = await downloadMeasured(
      server,
      '/api/dfem-user/export-user',
      headers,
      file,
      'export-user',
    );
    const { rows, header } = await countXlsxRows(file);
    rmSync(file, { force: true });
    out.export = { seconds, rows, expected, bytes, ...mem };
    log(
      `${label} export: ${rows} rows (${expected} expected), ${(bytes / 1048576).toFixed(1)} MB in ${seconds.toFixed(1)} s; ` +
        `server RSS ${mem.baseline.toFixed(0)} → peak ${mem.peak.toFixed(0)} MB; header ${header?.join('|')}`,
    );
    if (rows !== expected)
      out.errors.export = `the file holds ${rows} rows, the users page counts ${expected}`;
  });

  await step(out, 'import', `${label} import`, async () => {
    const buf = await importWorkbook();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(buf)]), 'users.xlsx');
    const stop = watchRss(server.child.pid);
    const t0 = performance.now();
    let answer;
    let mem;
    try {
      answer = await fetch(`${server.base}/api/dfem-user/import-user?isCovered=1`, {
        method: 'POST',
        headers,
        body: form,
      });
    } finally {
      mem = stop();
    }
    const text = await answer.text();
    const seconds = (performance.now() - t0) / 1000;
    if (!answer.ok) throw new Error(`import-user: ${answer.status} ${text.slice(0, 300)}`);
    const result = JSON.parse(text).data;
    const page = (await getJson(`${server.base}/api/dfem-user/page?current=1&size=1&account=imp`, headers))
      .data;
    out.import = { seconds, result, listed: page.total, ...mem };
    log(
      `${label} import: ${JSON.stringify(result)} in ${seconds.toFixed(1)} s; the users page lists ${page.total} ` +
        `imp* accounts (${page.records[0]?.roleName} / ${page.records[0]?.deptName}); server RSS peak ${mem.peak.toFixed(0)} MB`,
    );
    if (page.total !== IMPORT_ROWS) out.errors.import = `the users page lists ${page.total} imported users`;
  });
}

// ---------------------------------------------------------------------------------------------------------
// workload 3b: countersigns (会签) end to end: a multi-instance task over three approvers

const COUNTERSIGNS = Number(process.env.BENCH_COUNTERSIGNS ?? 10);
const COUNTERSIGN_XML = countersignBpmn({ id: 'bench_cs', key: 'benchCountersign', name: '压测会签' });

async function countersignWorkload(server, admin, applicant, approver, out, label) {
  const base = server.base;
  const form = new FormData();
  form.append('category', '2');
  form.append('tenantIds', '');
  form.append('files', new Blob([COUNTERSIGN_XML]), 'bench-countersign.bpmn');
  const deployed = await fetch(`${base}/api/dfem-flow/manager/deploy-upload`, {
    method: 'POST',
    headers: authHeaders(admin),
    body: form,
  });
  const pdid = (await deployed.json()).data.processDefinitionIds[0];
  const ah = authHeaders(applicant);
  const ph = authHeaders(approver);
  const mine = async (piid) =>
    (await getJson(`${base}/api/dfem-flow/work/todo-list?current=1&size=100`, ph)).data.records.filter(
      (r) => r.processInstanceId === piid,
    );
  const approve = (task, variables) =>
    postJson(`${base}/api/dfem-flow/work/complete-task`, ph, {
      taskId: task.taskId,
      flag: 'ok',
      comment: '同意',
      ...(variables ? { variables } : {}),
    });
  const t0 = performance.now();
  const cpu0 = cpuSeconds(server.child.pid);
  await Promise.all(
    Array.from({ length: COUNTERSIGNS }, async (_, i) => {
      const started = await postJson(`${base}/api/dfem-flow/process/apply/start-process`, ah, {
        processDefinitionId: pdid,
        title: `压测会签 ${i}`,
        taskUser: IDS.approver,
      });
      const piid = started.data.processInstanceId;
      const [prepare] = await mine(piid);
      await approve(prepare, { approvers: [IDS.approver, IDS.approver, IDS.approver] });
      const signs = await mine(piid);
      if (signs.length !== 3) throw new Error(`${signs.length} countersign tasks, 3 expected`);
      for (const t of signs) await approve(t);
      if ((await mine(piid)).length) throw new Error('a countersign task is left after all approved');
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpuMs = (cpuSeconds(server.child.pid) - cpu0) * 1000;
  out.countersigns = {
    done: COUNTERSIGNS,
    seconds,
    rate: COUNTERSIGNS / seconds,
    cpuMs: cpuMs / COUNTERSIGNS,
  };
  log(`${label} countersigns: ${COUNTERSIGNS} of three approvers in ${seconds.toFixed(1)} s`);
}

// ---------------------------------------------------------------------------------------------------------
// workload 3: leave processes end to end

async function leaveWorkload(server, applicant, approver, out, label) {
  const base = server.base;
  const ah = authHeaders(applicant);
  const ph = authHeaders(approver);
  let next = 0;
  let done = 0;
  let todoLookups = 0;
  const failures = [];
  const t0 = performance.now();
  const cpu0 = cpuSeconds(server.child.pid);
  const one = async (i) => {
    const started = await postJson(`${base}/api/dfem-desk/process/leave/start-process`, ah, {
      processDefinitionId: LEAVE_DEFINITION,
      taskUser: IDS.approver,
      startTime: '2026-12-01 09:00:00',
      endTime: '2026-12-03 18:00:00',
      reason: `压测请假 ${i}`,
    });
    const piid = started.data.processInstanceId;
    let task;
    for (let attempt = 0; attempt < 5 && !task; attempt++) {
      todoLookups++;
      const todo = await getJson(`${base}${TASKS_TO_DO_URL}`, ph);
      task = todo.data.records.find((r) => r.processInstanceId === piid);
    }
    if (!task) throw new Error(`the task of ${piid} is not in the approver's to-do list`);
    await postJson(`${base}/api/dfem-flow/work/complete-task`, ph, {
      taskId: task.taskId,
      processInstanceId: piid,
      flag: 'ok',
      comment: '同意',
    });
    done++;
  };
  const worker = async () => {
    while (next < LEAVES && performance.now() - t0 < LEAVE_DEADLINE_MS && failures.length < 5) {
      const i = next++;
      try {
        await one(i);
      } catch (err) {
        failures.push(String(err.message ?? err).split('\n')[0]);
      }
    }
  };
  await Promise.all(Array.from({ length: LEAVES_IN_FLIGHT }, worker));
  const seconds = (performance.now() - t0) / 1000;
  // every approved leave is finished: only the seeded waiting tasks are left in the approver's list
  const left = (await getJson(`${base}${TASKS_TO_DO_URL}`, ph)).data.total;
  const cpuMs = (cpuSeconds(server.child.pid) - cpu0) * 1000;
  out.leaves = { done, seconds, rate: done / seconds, lookups: todoLookups, left, cpuMs: cpuMs / done };
  log(
    `${label} leaves: ${done} started and approved in ${seconds.toFixed(1)} s (${(done / seconds).toFixed(1)}/s, ` +
      `${LEAVES_IN_FLIGHT} in flight, ${todoLookups} to-do lookups); approver's to-do list now holds ${left}` +
      (failures.length ? `; ${failures.length} failed: ${failures[0]}` : ''),
  );
  if (failures.length) out.errors.leaves = `${failures.length} failed: ${failures[0]}`;
  else if (left !== WAITING_TASKS)
    out.errors.leaves = `${left} tasks waiting afterwards, ${WAITING_TASKS} expected`;
}

// ---------------------------------------------------------------------------------------------------------
// one database

async function signIn(base, account) {
  const session = await passwordToken(base, account, USER_PASSWORD);
  if (!session) throw new Error(`${account} cannot sign in`);
  return session;
}

async function benchDatabase(kind, out) {
  const url = kind === 'postgres' ? WORK_DATABASE_URL : undefined;
  const dataDir = join(dataRoot, `workloads-${kind}`);
  // a migrated and seeded database, seeded while no server runs
  const { isPg, label, pgdata } = await migratedDatabase(kind, url, dataDir);
  if (isPg) await withPgClient(url, (c) => seedPostgres(c, log));
  else await seedPglite(pgdata, log);

  // 1. the scoped, dept-filtered users page, on a server of its own: on a slow database the requests
  // autocannon leaves in flight keep it busy long after the load, so nothing else is measured on it
  if (!ONLY_FLOW) {
    const server = await startServer(dataDir, url, undefined, READ_FROM_DATABASE);
    try {
      log(`${label}: server (pid ${server.child.pid}, READ_CACHE=false) answering after ${server.ms} ms`);
      await adminSession(server.base); // a new database: the admin's seeded password is changed once
      const manager = await signIn(server.base, ACCOUNTS.scoped);
      await step(out, 'page', `${label} scoped page`, async () => {
        const headers = authHeaders(manager);
        const page = (await getJson(server.base + SCOPED_PAGE, headers)).data;
        out.realPage = page;
        log(`${label}: the manager's page filtered on 运营部 counts ${page.total} users`);
        if (page.total !== USERS / 2) out.errors.page = `total ${page.total}, ${USERS / 2} expected`;
        out.page = await measureRoute(`${label} scoped page`, server.base + SCOPED_PAGE, headers);
        await drain(`${label} scoped page`, server.base + SCOPED_PAGE, headers, 30_000);
      });
    } finally {
      await stopProcess(server);
    }
  }

  // the same SQL behind the bare route, on the same data, while no server has it (one PGlite folder, one process)
  if (!ONLY_FLOW)
    await step(out, 'bare', `${label} bare`, async () => {
      const port = await freePort();
      const env = { ...process.env, PORT: String(port) };
      delete env.DATABASE_URL;
      delete env.PGLITE_DIR;
      if (isPg) env.DATABASE_URL = url;
      else env.PGLITE_DIR = pgdata;
      const bare = await startProcess('bare server', bareMain, env, port, '/ready');
      try {
        const bareBase = `http://127.0.0.1:${port}`;
        const bp = await getJson(bareBase + BARE_PAGE);
        if (out.realPage) {
          const ids = (p) => p.records.map((r) => String(r.id)).join();
          out.bareSame = bp.total === out.realPage.total && ids(bp) === ids(out.realPage);
          if (!out.bareSame) {
            log(`WARNING ${label}: the bare route's answer differs from the real one: is its SQL in sync?`);
            out.errors.bare = 'the bare route answered other rows than the real one';
          }
        }
        out.bare = await measureRoute(`${label} bare scoped page`, bareBase + BARE_PAGE, {});
        await drain(`${label} bare scoped page`, bareBase + BARE_PAGE, {}, 30_000);
      } finally {
        await stopProcess(bare);
      }
    });

  // 4, 3, 2 on a fresh server: the workflow rates before the Excel import, whose aftermath in the database
  // (autovacuum and a checkpoint after 10 000 rows) would otherwise be measured with them
  const server = await startServer(dataDir, url);
  try {
    log(`${label}: server (pid ${server.child.pid}) answering after ${server.ms} ms`);
    const admin = await adminSession(server.base);
    const applicant = await signIn(server.base, ACCOUNTS.applicant);
    const approver = await signIn(server.base, ACCOUNTS.approver);

    // 4. the to-do list over a long history (before workload 3 adds to it)
    if (!ONLY_FLOW)
      await step(out, 'todo', `${label} to-do list`, async () => {
        const headers = authHeaders(approver);
        const todo = (await getJson(server.base + TASKS_TO_DO_URL, headers)).data;
        const done = (await getJson(`${server.base}/api/dfem-flow/work/done-list?current=1&size=1`, headers))
          .data;
        log(`${label}: the approver has ${todo.total} tasks to do and ${done.total} done`);
        if (todo.total !== WAITING_TASKS || todo.records.length !== 10)
          out.errors.todo = `${todo.total} tasks to do (${todo.records.length} on the page), ${WAITING_TASKS} expected`;
        if (done.total < HISTORY_TASKS)
          out.errors.todo = `${done.total} tasks done, ${HISTORY_TASKS} expected`;
        out.todo = await measureRoute(`${label} to-do list`, server.base + TASKS_TO_DO_URL, headers);
        if ((await drain(`${label} to-do list`, server.base + TASKS_TO_DO_URL, headers, 60_000)) === null)
          throw new Error('the server did not finish the to-do requests left in flight within 60 s');
      });

    // 3. leave processes
    await step(out, 'leaves', `${label} leaves`, () =>
      leaveWorkload(server, applicant, approver, out, label),
    );
    // 3b. countersigns
    await step(out, 'countersigns', `${label} countersigns`, () =>
      countersignWorkload(server, admin, applicant, approver, out, label),
    );

    // 2. Excel out and in
    if (!ONLY_FLOW) await excelWorkloads(server, admin, out, label, dataDir);
    out.rssMb = rssMb(server.child.pid);
  } finally {
    await stopProcess(server);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// the table

function buildTable(res) {
  const rows = [
    {
      name: 'user/page, dept filter (运营部 and below) + data scope type 4, READ_CACHE=false, 50 conns: throughput',
      src: 'page',
      get: (r) => r.page?.rps,
      load: true,
      f: fmt.rps,
    },
    {
      name: 'user/page, dept filter + data scope: p50 latency',
      src: 'page',
      get: (r) => r.page?.p50,
      load: true,
      f: fmt.lat,
    },
    {
      name: 'user/page, dept filter + data scope: p99 latency',
      src: 'page',
      get: (r) => r.page?.p99,
      load: true,
      f: fmt.lat,
      target: '≤ 20 ms (PostgreSQL)',
      ok: (v) => v <= 20,
      only: 'postgres',
    },
    {
      name: 'user/page, dept filter + data scope: one request at a time (median)',
      src: 'page',
      get: (r) => r.page?.single,
      f: fmt.lat,
    },
    {
      name: 'Bare Fastify, same SQL as that page: throughput',
      src: 'bare',
      get: (r) => r.bare?.rps,
      load: true,
      f: fmt.rps,
    },
    {
      name: 'Bare Fastify, same SQL: one request at a time (median)',
      src: 'bare',
      get: (r) => r.bare?.single,
      f: fmt.lat,
    },
    {
      name: 'Framework overhead ratio scoped page real/bare (throughput)',
      src: 'bare',
      get: (r) => (r.page && r.bare ? r.page.rps / r.bare.rps : undefined),
      load: true,
      f: (v, r) => fmt.ratio(v) + (r.bareSame === false ? ' (bare answered other rows!)' : ''),
      suspect: (r) => r.bareSame === false,
      target: '≥ 0.7',
      ok: (v) => v >= 0.7,
    },
    {
      name: 'Framework overhead ratio, one request at a time (bare ms / real ms)',
      src: 'bare',
      get: (r) => (r.page && r.bare ? r.bare.single / r.page.single : undefined),
      f: (v, r) => fmt.ratio(v) + (r.bareSame === false ? ' (bare answered other rows!)' : ''),
      suspect: (r) => r.bareSame === false,
    },
    ...excelExportRows('all users'),
    {
      name: `Excel import of ${num(IMPORT_ROWS)} users: seconds until the answer`,
      src: 'import',
      get: (r) => r.import?.seconds,
      f: (v, r) =>
        `${fmt.s(v)} (${num(r.import.result?.created ?? 0)} created, ${num(r.import.listed)} listed)`,
    },
    peakMemoryRow('Excel import', 'import'),
    {
      name: `Leave processes end to end (start, to-do, approve; ${LEAVES_IN_FLIGHT} in flight)`,
      src: 'leaves',
      get: (r) => r.leaves?.rate,
      f: (v, r) =>
        `${v.toFixed(1)} processes/s (${r.leaves.done} in ${fmt.s(r.leaves.seconds)}; server CPU ${r.leaves.cpuMs.toFixed(0)} ms each)`,
      // the rate before timers, messages and call activities came in: they must not slow the common case
      target: '≥ 29/s (PostgreSQL)',
      ok: (v) => v >= 29,
      only: 'postgres',
    },
    {
      name: 'Countersigns (会签 of three approvers) end to end, 10 instances at once',
      src: 'countersigns',
      get: (r) => r.countersigns?.rate,
      f: (v, r) =>
        `${v.toFixed(1)} instances/s (${r.countersigns.done} in ${fmt.s(r.countersigns.seconds)}; server CPU ${r.countersigns.cpuMs.toFixed(0)} ms each)`,
      target: '≥ 10/s (PostgreSQL)',
      ok: (v) => v >= 10,
      only: 'postgres',
    },
    {
      name: `to-do list with ${num(HISTORY_TASKS)} finished tasks in history, 50 conns: throughput`,
      src: 'todo',
      get: (r) => r.todo?.rps,
      load: true,
      f: fmt.rps,
    },
    { name: 'to-do list: p50 latency', src: 'todo', load: true, get: (r) => r.todo?.p50, f: fmt.lat },
    { name: 'to-do list: p99 latency', src: 'todo', load: true, get: (r) => r.todo?.p99, f: fmt.lat },
    {
      name: 'to-do list: one request at a time (median)',
      src: 'todo',
      get: (r) => r.todo?.single,
      f: fmt.lat,
    },
    { name: 'Server resident memory at the end (VmRSS)', get: (r) => r.rssMb, f: fmt.mb },
  ];
  return libBuildTable(rows, res);
}

// ---------------------------------------------------------------------------------------------------------

async function main() {
  assertServerBuilt();
  const pgName = pgDatabaseName(WORK_DATABASE_URL);
  log(
    `data in ${dataRoot}/workloads-*; ${LOAD_SECONDS} s per route at ${CONNECTIONS} connections; ` +
      `PostgreSQL ${WORK_DATABASE_URL ? `on (database ${pgName})` : 'off (set DATABASE_URL)'}`,
  );
  const run = await benchEachDatabase(WORK_DATABASE_URL, benchDatabase, log);
  writeReport({
    file: 'last-workloads.md',
    title: '# Benchmark workloads, last run',
    facts: `${num(USERS)} seeded users, ${num(HISTORY_TASKS)} finished tasks · PostgreSQL database ${pgName || '—'}`,
    table: buildTable(run.results),
    run,
    logTo: log,
  });
}

await runMain(main, log);
