// The rows bench/workloads.mjs needs, written through a direct connection while no server runs (a PGlite
// folder is locked by the server that has it open). Idempotent: what is already there is left alone; what a
// previous run added (imported users, leave processes) is removed, so every run starts from the same state.
import { serverPasswordHash, TENANT } from './lib.mjs';
import { openPglite } from './pglite.mjs';

export const USERS = 100_000;
export const HISTORY_TASKS = 100_000;
/** waiting tasks of the approver, so the to-do page has a full page of rows to answer */
export const WAITING_TASKS = 20;
export const IMPORT_ROWS = 10_000;

/** Fixed ids (far above the id sequence's 1.6e18 start), so every statement can be ON CONFLICT DO NOTHING. */
export const IDS = {
  scopedRole: '1990000000000000101',
  staffRole: '1990000000000000102',
  userScope: '1990000000000000201',
  scopedUser: '1990000000000000301',
  applicant: '1990000000000000302',
  approver: '1990000000000000303',
};
export const DEPTS = {
  root: '1123598813738675201',
  tech: '1123598813738675202', // 技术部
  ops: '1123598813738675203', // 运营部, parent of 村务组
  finance: '1123598813738675204',
  village: '1123598813738675205', // 村务组, under 运营部
};
export const ACCOUNTS = { scoped: 'wl_manager', applicant: 'wl_applicant', approver: 'wl_approver' };
/** the seeded users' password (md5 of it is what the sign-in sends) */
export const USER_PASSWORD = 'Bench#Pass-2024';
export const LEAVE_DEFINITION = 'leave:1:seed0001';
const WORK_CODES = ['work', 'work_start', 'work_claim', 'work_todo', 'work_send', 'work_done'];

const BENCH_ACCOUNT = `account ~ '^bench[0-9]+$'`;
const IMPORT_ACCOUNT = `account ~ '^imp[0-9]+$'`;

/**
 * 100 000 users as bench/run.mjs seeds them (accounts bench1…, one of the four depts under the root each),
 * plus who created them: the admin, from the dept the user is in — the data scope reads create_dept.
 */
const USERS_SQL = `
BEGIN;
DELETE FROM blade_user_role WHERE user_id IN (SELECT id FROM blade_user WHERE ${BENCH_ACCOUNT});
DELETE FROM blade_user_dept WHERE user_id IN (SELECT id FROM blade_user WHERE ${BENCH_ACCOUNT});
DELETE FROM blade_user WHERE ${BENCH_ACCOUNT};
INSERT INTO blade_user (tenant_id, account, password, name, real_name, email, phone, sex, status,
                        create_user, create_dept, create_time, update_time)
SELECT '${TENANT}', 'bench' || n, 'not-a-hash: bench users cannot sign in', 'bench' || n, '用户' || n,
       'bench' || n || '@example.com', '138' || lpad(n::text, 8, '0'), n % 2 + 1, 1,
       1123598821738675201, 1123598813738675202 + n % 4,
       timestamptz '2023-01-01 00:00:00+08' + n * interval '7 minutes',
       timestamptz '2023-01-01 00:00:00+08' + n * interval '7 minutes'
FROM generate_series(1, ${USERS}) AS n;
INSERT INTO blade_user_dept (user_id, dept_id)
SELECT id, create_dept FROM blade_user WHERE ${BENCH_ACCOUNT};
COMMIT;
`;
const USERS_COUNT_SQL = `SELECT count(*)::int AS n FROM blade_user
  WHERE tenant_id = '${TENANT}' AND is_deleted = 0 AND ${BENCH_ACCOUNT} AND create_dept IS NOT NULL`;

/** Two roles (a dept manager with a type-4 scope over users; flow staff), three people who sign in. */
function peopleSql(passwordHash) {
  const userMenu = `(SELECT id FROM blade_menu WHERE code = 'user' AND is_deleted = 0 ORDER BY id LIMIT 1)`;
  const person = (id, account, realName, phone) =>
    `(${id}, '${TENANT}', '${account}', '${passwordHash}', '${account}', '${realName}', '${phone}', '${account}@example.com', 1)`;
  return `
BEGIN;
INSERT INTO blade_role (id, tenant_id, role_name, role_alias, sort) VALUES
  (${IDS.scopedRole}, '${TENANT}', '部门主管(压测)', 'wl_dept_manager', 90),
  (${IDS.staffRole}, '${TENANT}', '流程职员(压测)', 'wl_staff', 91)
ON CONFLICT DO NOTHING;
INSERT INTO blade_role_menu (role_id, menu_id)
  SELECT ${IDS.scopedRole}, m.id FROM blade_menu m
  WHERE m.is_deleted = 0 AND (m.id = ${userMenu} OR m.parent_id = ${userMenu})
ON CONFLICT DO NOTHING;
INSERT INTO blade_role_menu (role_id, menu_id)
  SELECT ${IDS.staffRole}, m.id FROM blade_menu m
  WHERE m.is_deleted = 0 AND m.code IN (${WORK_CODES.map((c) => `'${c}'`).join(', ')})
ON CONFLICT DO NOTHING;
INSERT INTO blade_scope_data (id, menu_id, resource_code, scope_name, scope_type)
  SELECT ${IDS.userScope}, ${userMenu}, 'user', '所在机构及子级可见(压测)', 4
ON CONFLICT DO NOTHING;
INSERT INTO blade_role_scope (scope_category, scope_id, role_id) VALUES (1, ${IDS.userScope}, ${IDS.scopedRole})
ON CONFLICT DO NOTHING;
INSERT INTO blade_user (id, tenant_id, account, password, name, real_name, phone, email, sex) VALUES
  ${person(IDS.scopedUser, ACCOUNTS.scoped, '部门主管', '13700000001')},
  ${person(IDS.applicant, ACCOUNTS.applicant, '请假申请人', '13700000002')},
  ${person(IDS.approver, ACCOUNTS.approver, '请假审批人', '13700000003')}
ON CONFLICT DO NOTHING;
INSERT INTO blade_user_role (user_id, role_id) VALUES
  (${IDS.scopedUser}, ${IDS.scopedRole}), (${IDS.applicant}, ${IDS.staffRole}), (${IDS.approver}, ${IDS.staffRole})
ON CONFLICT DO NOTHING;
INSERT INTO blade_user_dept (user_id, dept_id) VALUES
  (${IDS.scopedUser}, ${DEPTS.ops}), (${IDS.applicant}, ${DEPTS.tech}), (${IDS.approver}, ${DEPTS.tech})
ON CONFLICT DO NOTHING;
COMMIT;
`;
}
const PEOPLE_COUNT_SQL = `SELECT
  (SELECT count(*)::int FROM blade_user WHERE id IN (${IDS.scopedUser}, ${IDS.applicant}, ${IDS.approver}) AND is_deleted = 0) AS users,
  (SELECT count(*)::int FROM blade_role_scope WHERE scope_id = ${IDS.userScope} AND role_id = ${IDS.scopedRole}) AS grants,
  (SELECT count(*)::int FROM blade_role_menu WHERE role_id = ${IDS.staffRole}) AS work`;

/**
 * The approver's history: 100 000 finished leave processes (instance + its approved task, as a completed
 * leave leaves them; the to-do list joins flow_task → flow_instance → flow_definition), and 20 waiting ones,
 * all in ONE statement (a data-modifying CTE).
 */
const HISTORY_SQL = `
WITH def AS (
  SELECT id, process_definition_id, process_key, name, category FROM flow_definition
  WHERE process_definition_id = '${LEAVE_DEFINITION}'
), inst AS (
  INSERT INTO flow_instance (tenant_id, process_instance_id, definition_id, process_definition_id, process_key,
                             process_name, category, start_user, start_time, end_time, state, variables,
                             create_user, create_time, update_time)
  SELECT '${TENANT}', 'wl-hist-' || n, def.id, def.process_definition_id, def.process_key, def.name, def.category,
         ${IDS.applicant}, t.at,
         CASE WHEN n <= ${HISTORY_TASKS} THEN t.at + interval '1 hour' END,
         CASE WHEN n <= ${HISTORY_TASKS} THEN 'finished' ELSE 'running' END,
         '{"taskUser":"${IDS.approver}","days":1}', ${IDS.applicant}, t.at, t.at
  FROM def, generate_series(1, ${HISTORY_TASKS + WAITING_TASKS}) AS n,
       LATERAL (SELECT timestamptz '2024-01-01 00:00:00+08' + n * interval '5 minutes' AS at) AS t
  RETURNING process_instance_id, process_definition_id, start_time, state
)
INSERT INTO flow_task (tenant_id, process_instance_id, process_definition_id, execution_id, task_definition_key,
                       name, assignee, status, end_time, flag, comment, create_time)
SELECT '${TENANT}', process_instance_id, process_definition_id, 'approve_' || process_instance_id, 'approve', '审批',
       ${IDS.approver},
       CASE WHEN state = 'finished' THEN 1 ELSE 0 END,
       CASE WHEN state = 'finished' THEN start_time + interval '1 hour' END,
       CASE WHEN state = 'finished' THEN 'ok' END,
       CASE WHEN state = 'finished' THEN '同意' END,
       start_time
FROM inst
`;
const HISTORY_COUNT_SQL = `SELECT count(*) FILTER (WHERE status = 1)::int AS done, count(*) FILTER (WHERE status = 0)::int AS waiting
  FROM flow_task WHERE tenant_id = '${TENANT}' AND assignee = ${IDS.approver} AND process_instance_id LIKE 'wl-hist-%'`;
const HISTORY_DELETE_SQL = `
BEGIN;
DELETE FROM flow_task WHERE process_instance_id LIKE 'wl-hist-%';
DELETE FROM flow_instance WHERE process_instance_id LIKE 'wl-hist-%';
COMMIT;
`;

/** What earlier runs added: the imported users, and the leave processes workload 3 started. */
const RESET_SQL = `
BEGIN;
DELETE FROM blade_user_role WHERE user_id IN (SELECT id FROM blade_user WHERE ${IMPORT_ACCOUNT});
DELETE FROM blade_user_dept WHERE user_id IN (SELECT id FROM blade_user WHERE ${IMPORT_ACCOUNT});
DELETE FROM blade_user WHERE ${IMPORT_ACCOUNT};
CREATE TEMP TABLE wl_runs ON COMMIT DROP AS
  SELECT process_instance_id FROM flow_instance
  WHERE start_user = ${IDS.applicant} AND process_instance_id NOT LIKE 'wl-hist-%';
DELETE FROM flow_history WHERE process_instance_id IN (SELECT process_instance_id FROM wl_runs);
DELETE FROM flow_task WHERE process_instance_id IN (SELECT process_instance_id FROM wl_runs);
DELETE FROM flow_instance WHERE process_instance_id IN (SELECT process_instance_id FROM wl_runs);
DELETE FROM blade_process_leave WHERE create_user = ${IDS.applicant};
COMMIT;
`;

/** A settled database, as autovacuum leaves it on PostgreSQL (fresh statistics, visibility map). */
const VACUUM_SQL = [
  'blade_user',
  'blade_user_dept',
  'blade_user_role',
  'flow_task',
  'flow_instance',
  'flow_history',
  'blade_process_leave',
].map((t) => `VACUUM ANALYZE ${t}`);

/**
 * Seeds through `q` (a function running one SQL text, answering rows). Returns what it did, for the log.
 */
async function seedWith(q, log, label) {
  const did = [];
  const t0 = performance.now();
  const [users] = await q(USERS_COUNT_SQL);
  if (users.n !== USERS) {
    log(`${label}: inserting ${USERS} users with their creating dept (${users.n} were there)…`);
    await q(USERS_SQL);
    did.push('users');
  }
  const [people] = await q(PEOPLE_COUNT_SQL);
  if (people.users !== 3 || people.grants !== 1 || people.work !== WORK_CODES.length) {
    await q(peopleSql(await serverPasswordHash(USER_PASSWORD)));
    did.push('roles, scope and people');
  }
  const [history] = await q(HISTORY_COUNT_SQL);
  if (history.done !== HISTORY_TASKS || history.waiting !== WAITING_TASKS) {
    log(`${label}: inserting ${HISTORY_TASKS} finished and ${WAITING_TASKS} waiting tasks of the approver…`);
    await q(HISTORY_DELETE_SQL);
    await q(HISTORY_SQL);
    did.push('flow history');
  }
  await q(RESET_SQL);
  for (const v of VACUUM_SQL) await q(v); // one statement each: VACUUM refuses a transaction
  log(
    `${label}: seed ${did.length ? `wrote ${did.join(', ')}` : 'already there'}; earlier runs' rows removed, ` +
      `vacuumed (${Math.round(performance.now() - t0)} ms)`,
  );
}

export async function seedPglite(pgdata, log) {
  const client = await openPglite(pgdata);
  try {
    // exec runs several statements (simple protocol); the last result set is the one that answers
    await seedWith(
      async (text) => {
        const results = await client.exec(text);
        return results.at(-1)?.rows ?? [];
      },
      log,
      'PGlite',
    );
  } finally {
    await client.close();
  }
}

export async function seedPostgres(client, log) {
  await seedWith(
    async (text) => {
      const r = await client.query(text);
      return (Array.isArray(r) ? r.at(-1) : r)?.rows ?? [];
    },
    log,
    'PostgreSQL',
  );
}
