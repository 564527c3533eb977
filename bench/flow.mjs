// Workflow throughput of 智慧管理系统 (issue 37 item 5): `npm run bench` (builds first) or `node bench/flow.mjs`.
//
//   1. Leave processes end to end through the HTTP API, as people do them: the applicant starts a leave
//      (desk leave/start-process), the approver finds its task in the to-do list, approves it, the process
//      ends. One client at a time for BENCH_SECONDS, then 8 clients at once (each its own applicant and
//      approver): processes per second, the server's CPU ms per leave (/proc/<pid>/stat), and on PostgreSQL the
//      statements the server sent per leave (bench/count-sql.mjs, preloaded into the server).
//   2. Countersigns (会签) of three: a prepare step whose approver picks three approvers, then a parallel
//      multi-instance task each of the three approves from their own to-do list; one client at a time, then 8.
//   Every process the bench starts must have ended, and no task of the bench's people be left waiting.
//
// Before and after, back to back: BENCH_FLOW_BASELINE=<a checkout of the code before, its server built>
// (e.g. a worktree of main at the commit before the change, `npm run build -w apps/server` run there, its
// node_modules linked to this one's) runs the same workloads on that build first, on databases of its own,
// then on this build, and prints both with the ratio. Without it, only this build is measured (the last
// before/after run is kept in bench/last-flow.md).
//
// PGlite always (<BENCH_DATA>/flow-<side>-pglite); PostgreSQL too when DATABASE_URL is set (its database with
// `_flow` appended, `_flow_before` for the baseline; created when missing). Environment: DATABASE_URL,
// BENCH_SECONDS (seconds per measurement, default 10), BENCH_FLOW_BASELINE, BENCH_DATA, BENCH_DATABASES
// (lib.mjs), BENCH_NODE_ARGS (lib.mjs: e.g. --cpu-prof for a profile of the server). Progress goes to
// stderr; the table to stdout and to bench/last-flow.md.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  adminSession,
  authHeaders,
  countersignBpmn,
  cpuSeconds,
  getJson,
  here,
  installExitHandlers,
  makeLog,
  migratedDatabase,
  passwordToken,
  postJson,
  root,
  runMain,
  serverMain,
  serverPasswordHash,
  sleep,
  startServer,
  stopProcess,
  TENANT,
  withPgClient,
} from './lib.mjs';
import { benchEachDatabase, buildTable, LOAD_SECONDS, suffixedDbUrl, writeReport } from './measure.mjs';
import { openPglite } from './pglite.mjs';

installExitHandlers();
const log = makeLog('flow');
const dataRoot = resolve(process.env.BENCH_DATA ?? join(root, '.bench-data'));
const DATABASE_URL = process.env.DATABASE_URL || '';
const FLOW_DATABASE_URL = DATABASE_URL ? suffixedDbUrl(DATABASE_URL, '_flow') : '';
const BASELINE = process.env.BENCH_FLOW_BASELINE ? resolve(process.env.BENCH_FLOW_BASELINE) : '';
const baselineMain = BASELINE && join(BASELINE, 'apps', 'server', 'dist', 'main.js');
const CLIENTS = 8;
const LEAVE_DEFINITION = 'leave:1:seed0001';
const PASSWORD = 'Bench#Pass-2024';
const COUNT_SQL = join(here, 'count-sql.mjs');
const WARM_UP_LEAVES = 40;
const WARM_UP_COUNTERSIGNS = 8;

// the statements the server sends are counted by a preloaded module (PostgreSQL only)
process.env.BENCH_NODE_ARGS = `--import ${COUNT_SQL} ${process.env.BENCH_NODE_ARGS ?? ''}`.trim();

// ---------------------------------------------------------------------------------------------------------
// the bench's people: 8 applicants, 24 approvers (client i: applicant i, approvers 3i…3i+2), a staff role
// with the work menus; what earlier runs left (their instances, tasks, history, leaves) removed

const ROLE = '1990000000000000501';
const USER0 = 1990000000000000600n;
const applicantId = (i) => String(USER0 + BigInt(i));
const approverId = (i) => String(USER0 + 100n + BigInt(i));
const applicantAccount = (i) => `flow_bench_a${i}`;
const approverAccount = (i) => `flow_bench_p${i}`;
const WORK_CODES = ['work', 'work_start', 'work_claim', 'work_todo', 'work_send', 'work_done'];
const PEOPLE = [
  ...Array.from({ length: CLIENTS }, (_, i) => ({ id: applicantId(i), account: applicantAccount(i) })),
  ...Array.from({ length: CLIENTS * 3 }, (_, i) => ({ id: approverId(i), account: approverAccount(i) })),
];
const BENCH_USERS = `(${PEOPLE.map((p) => p.id).join(', ')})`;

function peopleSql(hash) {
  return `
BEGIN;
INSERT INTO blade_role (id, tenant_id, role_name, role_alias, sort)
  VALUES (${ROLE}, '${TENANT}', '流程职员(流程压测)', 'flow_bench_staff', 92) ON CONFLICT DO NOTHING;
INSERT INTO blade_role_menu (role_id, menu_id)
  SELECT ${ROLE}, m.id FROM blade_menu m
  WHERE m.is_deleted = 0 AND m.code IN (${WORK_CODES.map((c) => `'${c}'`).join(', ')})
ON CONFLICT DO NOTHING;
INSERT INTO blade_user (id, tenant_id, account, password, name, real_name, phone, email, sex) VALUES
  ${PEOPLE.map((p, n) => `(${p.id}, '${TENANT}', '${p.account}', '${hash}', '${p.account}', '流程压测${n}', '1360000${String(n).padStart(4, '0')}', '${p.account}@example.com', 1)`).join(',\n  ')}
ON CONFLICT DO NOTHING;
INSERT INTO blade_user_role (user_id, role_id) SELECT id, ${ROLE} FROM blade_user WHERE id IN ${BENCH_USERS}
ON CONFLICT DO NOTHING;
INSERT INTO blade_user_dept (user_id, dept_id) SELECT id, 1123598813738675202 FROM blade_user WHERE id IN ${BENCH_USERS}
ON CONFLICT DO NOTHING;
COMMIT;`;
}
const PEOPLE_COUNT_SQL = `SELECT count(*)::int AS n FROM blade_user u JOIN blade_user_role r ON r.user_id = u.id
  WHERE u.id IN ${BENCH_USERS} AND u.is_deleted = 0 AND r.role_id = ${ROLE}`;
const RESET_SQL = `
BEGIN;
CREATE TEMP TABLE fb_runs ON COMMIT DROP AS
  SELECT process_instance_id FROM flow_instance WHERE start_user IN ${BENCH_USERS};
DELETE FROM flow_history WHERE process_instance_id IN (SELECT process_instance_id FROM fb_runs);
DELETE FROM flow_task WHERE process_instance_id IN (SELECT process_instance_id FROM fb_runs);
DELETE FROM flow_wait WHERE process_instance_id IN (SELECT process_instance_id FROM fb_runs);
DELETE FROM flow_instance WHERE process_instance_id IN (SELECT process_instance_id FROM fb_runs);
DELETE FROM blade_process_leave WHERE create_user IN ${BENCH_USERS};
COMMIT;`;
const VACUUM = ['flow_instance', 'flow_task', 'flow_history', 'flow_wait', 'blade_process_leave'].map(
  (t) => `VACUUM ANALYZE ${t}`,
);

async function seedWith(q, label) {
  const [people] = await q(PEOPLE_COUNT_SQL);
  if (people.n !== PEOPLE.length) {
    await q(peopleSql(await serverPasswordHash(PASSWORD)));
    log(`${label}: ${PEOPLE.length} people and their role written`);
  }
  await q(RESET_SQL);
  for (const v of VACUUM) await q(v);
}

async function seed(db, url) {
  if (db.isPg)
    return withPgClient(url, (c) =>
      seedWith(async (text) => {
        const r = await c.query(text);
        return (Array.isArray(r) ? r.at(-1) : r)?.rows ?? [];
      }, db.label),
    );
  const client = await openPglite(db.pgdata);
  try {
    await seedWith(async (text) => (await client.exec(text)).at(-1)?.rows ?? [], db.label);
  } finally {
    await client.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// the workloads

const COUNTERSIGN_XML = countersignBpmn({
  id: 'bench_flow_cs',
  key: 'benchFlowCountersign',
  name: '流程压测会签',
});

/** The statements the server has sent to PostgreSQL so far (bench/count-sql.mjs), or NaN on PGlite. */
async function sqlCount(server) {
  if (!server.sqlFile) return Number.NaN;
  rmSync(server.sqlFile, { force: true });
  process.kill(server.child.pid, 'SIGUSR2');
  for (let i = 0; i < 200 && !existsSync(server.sqlFile); i++) await sleep(5);
  return Number(readFileSync(server.sqlFile, 'utf8'));
}

/** One client's API: its applicant's and three approvers' sessions. */
function clientOf(base, sessions, i) {
  const ah = authHeaders(sessions[applicantAccount(i)]);
  const ph = [0, 1, 2].map((k) => authHeaders(sessions[approverAccount(3 * i + k)]));
  const todo = async (headers, piid) => {
    // the task is there once start-process answered; looked up again a few times all the same
    for (let attempt = 0; attempt < 5; attempt++) {
      const rows = (await getJson(`${base}/api/dfem-flow/work/todo-list?current=1&size=10`, headers)).data
        .records;
      const task = rows.find((r) => r.processInstanceId === piid);
      if (task) return task;
    }
    throw new Error(`the task of ${piid} is not in the to-do list`);
  };
  const approve = (headers, task, variables) =>
    postJson(`${base}/api/dfem-flow/work/complete-task`, headers, {
      taskId: task.taskId,
      processInstanceId: task.processInstanceId,
      flag: 'ok',
      comment: '同意',
      ...(variables ? { variables } : {}),
    });
  let n = 0;
  return {
    /** a leave: started, found in the approver's to-do list, approved (it ends) */
    async leave() {
      const started = await postJson(`${base}/api/dfem-desk/process/leave/start-process`, ah, {
        processDefinitionId: LEAVE_DEFINITION,
        taskUser: approverId(3 * i),
        startTime: '2026-12-01 09:00:00',
        endTime: '2026-12-03 18:00:00',
        reason: `流程压测请假 ${i}-${n++}`,
      });
      const piid = started.data.processInstanceId;
      await approve(ph[0], await todo(ph[0], piid));
    },
    /** a countersign of three: the prepare step picks them, each approves from their own to-do list */
    async countersign(pdid) {
      const started = await postJson(`${base}/api/dfem-flow/process/apply/start-process`, ah, {
        processDefinitionId: pdid,
        title: `流程压测会签 ${i}-${n++}`,
        taskUser: approverId(3 * i),
      });
      const piid = started.data.processInstanceId;
      await approve(ph[0], await todo(ph[0], piid), {
        approvers: [0, 1, 2].map((k) => approverId(3 * i + k)),
      });
      for (const headers of ph) await approve(headers, await todo(headers, piid));
    },
  };
}

/**
 * `clients` clients each running `work` over and over for `seconds` (none starts a new one after that):
 * processes per second, the server's CPU ms and statements per process.
 */
async function measure(server, label, clients, seconds, work) {
  const t0 = performance.now();
  const cpu0 = cpuSeconds(server.child.pid);
  const sql0 = await sqlCount(server);
  let done = 0;
  const failures = [];
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() - t0 < seconds * 1000 && failures.length < 5) {
        try {
          await work(client);
          done++;
        } catch (err) {
          failures.push(String(err.message ?? err).split('\n')[0]);
        }
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  const cpuMs = ((cpuSeconds(server.child.pid) - cpu0) * 1000) / done;
  const statements = ((await sqlCount(server)) - sql0) / done;
  const r = { done, seconds: secs, rate: done / secs, cpuMs, statements };
  log(
    `${label}: ${done} in ${secs.toFixed(1)} s = ${r.rate.toFixed(1)}/s; server CPU ${cpuMs.toFixed(1)} ms each` +
      (Number.isNaN(statements) ? '' : `, ${statements.toFixed(1)} statements each`) +
      (failures.length ? `; ${failures.length} FAILED: ${failures[0]}` : ''),
  );
  if (failures.length) throw new Error(`${failures.length} failed: ${failures[0]}`);
  return r;
}

/** One side (this build, or the baseline's) on one database. */
async function benchSide(kind, side, main, out) {
  const isPg = kind === 'postgres';
  const url = isPg
    ? side === 'before'
      ? `${FLOW_DATABASE_URL.replace(/\/+$/, '')}_before`
      : FLOW_DATABASE_URL
    : '';
  const dataDir = join(dataRoot, `flow-${side}-${kind}`);
  const db = await migratedDatabase(kind, url, dataDir, undefined, main);
  await seed(db, url);
  const sqlFile = isPg ? join(dataDir, 'sql-count') : '';
  const server = await startServer(
    dataDir,
    isPg ? url : undefined,
    undefined,
    sqlFile ? { BENCH_SQL_COUNT_FILE: sqlFile } : {},
    main,
  );
  server.sqlFile = sqlFile;
  const label = `${db.label} ${side}`;
  try {
    log(`${label}: server (pid ${server.child.pid}) answering after ${server.ms} ms`);
    const admin = await adminSession(server.base);
    const sessions = {};
    for (const p of PEOPLE) {
      sessions[p.account] = await passwordToken(server.base, p.account, PASSWORD);
      if (!sessions[p.account]) throw new Error(`${p.account} cannot sign in`);
    }
    const clients = Array.from({ length: CLIENTS }, (_, i) => clientOf(server.base, sessions, i));
    const form = new FormData();
    form.append('category', '2');
    form.append('tenantIds', '');
    form.append('files', new Blob([COUNTERSIGN_XML]), 'bench-flow-countersign.bpmn');
    const deployed = await fetch(`${server.base}/api/dfem-flow/manager/deploy-upload`, {
      method: 'POST',
      headers: authHeaders(admin),
      body: form,
    });
    if (!deployed.ok) throw new Error(`deploy: ${deployed.status} ${await deployed.text()}`);
    const pdid = (await deployed.json()).data.processDefinitionIds[0];

    // warm-up (JIT, caches, plans), not measured
    for (let k = 0; k < WARM_UP_LEAVES; k++) await clients[k % CLIENTS].leave();
    for (let k = 0; k < WARM_UP_COUNTERSIGNS; k++) await clients[k % CLIENTS].countersign(pdid);

    out.leave1 = await measure(
      server,
      `${label} leaves, one at a time`,
      clients.slice(0, 1),
      LOAD_SECONDS,
      (c) => c.leave(),
    );
    out.leave8 = await measure(server, `${label} leaves, ${CLIENTS} clients`, clients, LOAD_SECONDS, (c) =>
      c.leave(),
    );
    out.cs1 = await measure(
      server,
      `${label} countersigns, one at a time`,
      clients.slice(0, 1),
      LOAD_SECONDS,
      (c) => c.countersign(pdid),
    );
    out.cs8 = await measure(server, `${label} countersigns, ${CLIENTS} clients`, clients, LOAD_SECONDS, (c) =>
      c.countersign(pdid),
    );

    // every process ended: no task of the bench's approvers waits, none of its instances runs
    let waiting = 0;
    for (let k = 0; k < CLIENTS * 3; k++)
      waiting += (
        await getJson(
          `${server.base}/api/dfem-flow/work/todo-list?current=1&size=1`,
          authHeaders(sessions[approverAccount(k)]),
        )
      ).data.total;
    let running = 0;
    for (let k = 0; k < CLIENTS; k++)
      running += (
        await getJson(
          `${server.base}/api/dfem-flow/work/send-list?current=1&size=100`,
          authHeaders(sessions[applicantAccount(k)]),
        )
      ).data.records.filter((r) => r.processIsFinished !== 'finished').length;
    out.left = { waiting, running };
    log(`${label}: afterwards ${waiting} tasks wait, ${running} of the latest instances run`);
    if (waiting || running) out.errors.left = `${waiting} tasks still wait, ${running} instances still run`;
  } finally {
    await stopProcess(server);
  }
}

async function bench(kind, out) {
  if (baselineMain) {
    out.before = { errors: out.errors };
    await benchSide(kind, 'before', baselineMain, out.before);
  }
  await benchSide(kind, 'after', serverMain, out);
}

async function main() {
  if (baselineMain && !existsSync(baselineMain))
    throw new Error(`BENCH_FLOW_BASELINE: ${baselineMain} is not built (npm run build -w apps/server there)`);
  const run = await benchEachDatabase(FLOW_DATABASE_URL, bench, log);
  // a cell: this build's value, and the baseline's with the ratio when it ran
  const cell = (key, field, format, better) => ({
    get: (r) => r[key]?.[field],
    f: (v, r) => {
      const b = r.before?.[key]?.[field];
      if (b === undefined || Number.isNaN(b)) return format(v);
      const ratio = better === 'higher' ? v / b : b / v;
      return `${format(v)} (before ${format(b)}; ×${ratio.toFixed(2)})`;
    },
  });
  const rate = (v) => `${v.toFixed(1)}/s`;
  const ms = (v) => `${v.toFixed(1)} ms`;
  const count = (v) => v.toFixed(1);
  // a rate and its least, a target set for PostgreSQL only
  const rateRow = (name, key, least) => ({
    name,
    src: key,
    ...cell(key, 'rate', rate, 'higher'),
    target: `≥ ${least}/s on PostgreSQL`,
    ok: (v) => v >= least,
    only: 'postgres',
  });
  const table = buildTable(
    [
      rateRow('leave processes/s, one client at a time (start → to-do → approve → end)', 'leave1', 50),
      rateRow(`leave processes/s, ${CLIENTS} clients`, 'leave8', 80),
      { name: 'server CPU ms per leave, one at a time', src: 'leave1', ...cell('leave1', 'cpuMs', ms) },
      { name: `server CPU ms per leave, ${CLIENTS} clients`, src: 'leave8', ...cell('leave8', 'cpuMs', ms) },
      {
        name: 'SQL statements per leave (round trips, BEGIN/COMMIT included)',
        src: 'leave1',
        ...cell('leave1', 'statements', count),
      },
      rateRow(
        'countersigns of three/s, one client at a time (start, prepare picks three, each approves)',
        'cs1',
        30,
      ),
      rateRow(`countersigns of three/s, ${CLIENTS} clients`, 'cs8', 30),
      { name: 'server CPU ms per countersign, one at a time', src: 'cs1', ...cell('cs1', 'cpuMs', ms) },
      {
        name: 'SQL statements per countersign',
        src: 'cs1',
        ...cell('cs1', 'statements', count),
      },
    ],
    run.results,
  );
  writeReport({
    file: 'last-flow.md',
    title: '# Workflow throughput bench',
    facts:
      `${CLIENTS} clients = 8 applicants with their own approvers; ` +
      (baselineMain
        ? `before = ${BASELINE} (run first, own databases), after = this build`
        : 'this build only'),
    table,
    run,
    logTo: log,
  });
}

await runMain(main, log);
