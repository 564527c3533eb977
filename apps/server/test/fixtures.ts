import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type FieldDef, fieldKind, type ResourceDef, uniqueSets } from '@smart/contracts';
import { and, eq, inArray, isNotNull, notInArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { dropAccessCaches } from '../src/modules/system/caches';
import { hashSecret } from '../src/platform/auth/password';
import { forgetAllCounts } from '../src/platform/crud/count-cache';
import { mountedResource } from '../src/platform/crud/refs';
import { type Db, schema } from '../src/platform/db';
import { serverRoot } from '../src/platform/paths';
import { menuId } from '../src/seed/menus';
import { SEED } from '../src/seed/system';
import { auth, md5Hex, signIn, startTestServer, type TestServer, tokenRequest } from './harness';

/**
 * A valid value for a field, distinct per n: its example, else its kind's sample (`FIELD_KINDS`), except
 * where only the seeded data can say what is valid (a tree's ids, a menu).
 */
export function sampleValue(f: FieldDef, n: number): unknown {
  if (f.example !== undefined) return f.example;
  if (f.default !== undefined && f.pattern) return f.default;
  switch (f.type) {
    case 'ids':
      if (f.tree === 'role') return '1123598816738675201';
      if (f.tree === 'dept') return '1123598813738675201';
      return f.tree === 'menu' ? menuId('system') : '';
    case 'ref':
      // a menu reference names a real menu; a parent in a tree is the root
      if (f.tree === 'menu') return f.name === 'parentId' ? '0' : menuId('system');
      return f.tree ? '0' : '';
    case 'password':
      return md5Hex(`secret-${n}`);
  }
  // an optional field with a pattern of its own is left empty unless it has an example
  if (f.pattern && !f.required) return '';
  return fieldKind(f).sample(f, n);
}

export function sampleRecord(def: ResourceDef, n: number): Record<string, unknown> {
  const r: Record<string, unknown> = {};
  for (const f of def.fields) if (f.form !== false && !f.readOnly) r[f.name] = sampleValue(f, n);
  // the records one resource's tests create in a row differ in each unique key: a field of the key whose
  // example ends in digits takes n there (湘A12345 → 湘A12007); a number takes one of the 50 highest values,
  // away from the seed's (an income line's year); a date moves n days (a station's tariff of a day);
  // a reference stays the seeded row it names; a key field of its own (a region's code) differs as they do
  for (const set of [...uniqueSets(def), ...(def.idField ? [[def.idField]] : [])])
    for (const u of set) {
      const f = def.fields.find((x) => x.name === u);
      if (
        f?.type !== 'ref' &&
        f?.example !== undefined &&
        typeof r[u] === 'string' &&
        /\d{3}$/.test(r[u] as string)
      )
        r[u] = (r[u] as string).slice(0, -3) + String(n % 1000).padStart(3, '0');
      else if (f?.type === 'int' && f.max !== undefined) r[u] = Math.max(f.min ?? 0, f.max - (n % 50));
      else if (f?.type === 'date' && typeof r[u] === 'string' && r[u])
        r[u] = new Date(Date.parse(`${r[u]}T00:00:00Z`) + (n % 3000) * 86_400_000).toISOString().slice(0, 10);
    }
  return r;
}

/**
 * `sampleRecord`, with a row of its own where a unique key is references alone (one member record a
 * villager: `villagerToParty`'s villagerId): the key's last reference names a row of the target resource that
 * no live row of this one names yet, so the records one test creates never clash with the seed's or each
 * other's.
 */
export async function freshRecord(s: TestServer, def: ResourceDef, n: number, tenantId = '000000') {
  const r = sampleRecord(def, n);
  for (const set of uniqueSets(def)) {
    const fields = set.map((name) => def.fields.find((f) => f.name === name));
    if (!fields.every((f) => f?.type === 'ref' && f.ref)) continue;
    const f = fields[fields.length - 1] as FieldDef;
    const own = mountedResource(def.key);
    const target = mountedResource(f.ref as string);
    const db = s.database.db;
    const used = db
      .select({ id: own.cols[f.name] })
      .from(own.table)
      .where(and(eq(own.cols.isDeleted, 0), isNotNull(own.cols[f.name])));
    const [free] = await db
      .select({ id: target.cols.id })
      .from(target.table)
      .where(
        and(
          eq(target.cols.isDeleted, 0),
          ...(target.def.tenant ? [eq(target.cols.tenantId, tenantId)] : []),
          notInArray(target.cols.id, used),
        ),
      )
      .orderBy(target.cols.id)
      .limit(1);
    if (free) r[f.name] = String(free.id);
  }
  return r;
}

let counter = 0;

/** A user in a tenant holding the given roles and dept; returns its id. */
export async function makeUser(
  db: Db,
  opts: { tenantId?: string; account: string; password?: string; roleIds: string[]; deptId?: string },
) {
  const [u] = await db
    .insert(schema.user)
    .values({
      tenantId: opts.tenantId ?? '000000',
      account: opts.account,
      password: await hashSecret(md5Hex(opts.password ?? 'pass')),
      realName: opts.account.slice(0, 10),
    })
    .returning({ id: schema.user.id });
  if (opts.roleIds.length)
    await db.insert(schema.userRole).values(opts.roleIds.map((roleId) => ({ userId: u.id, roleId })));
  if (opts.deptId) await db.insert(schema.userDept).values({ userId: u.id, deptId: opts.deptId });
  return u.id;
}

/** The work-desk codes a role needs to start, claim, hand on and read processes. */
export const WORK_CODES = ['work', 'work_start', 'work_claim', 'work_todo', 'work_send', 'work_done'];

/**
 * GET and POST under one service prefix, as `token()` (or the token given) and in a language (zh unless
 * given): the calls an area's API tests make.
 */
export function serviceCalls(server: () => TestServer, prefix: string, token: () => string) {
  const headers = (tk: string, lang: string) => ({ ...auth(tk), 'accept-language': lang });
  return {
    get: (url: string, tk = token(), lang = 'zh') =>
      server().app.inject({ method: 'GET', url: `${prefix}${url}`, headers: headers(tk, lang) }),
    post: (url: string, payload?: object, tk = token(), lang = 'zh') =>
      server().app.inject({ method: 'POST', url: `${prefix}${url}`, headers: headers(tk, lang), payload }),
  };
}

/**
 * serviceCalls that keep every answer's body (`answers`), for tests that look through all of them for what
 * must never be answered (a secret).
 */
export function recordedCalls(server: () => TestServer, prefix: string, token: () => string) {
  const answers: string[] = [];
  const calls = () => serviceCalls(server, prefix, token);
  const kept = async <T extends { body: string }>(r: Promise<T>) => {
    const done = await r;
    answers.push(done.body);
    return done;
  };
  return {
    answers,
    get: (url: string, tk = token()) => kept(calls().get(url, tk)),
    post: (url: string, body?: object, tk = token()) => kept(calls().post(url, body, tk)),
  };
}

/**
 * What an area's API tests start from (call it in `beforeAll`): a server (`env` over the test defaults),
 * the seeded administrator's token, and the administrator of another tenant for the isolation tests.
 */
export async function areaServer(
  otherTenant: [tenantId: string, name: string, account: string],
  env?: Record<string, string>,
) {
  const s = await startTestServer(env);
  const token = (await signIn(s)).access_token;
  return { s, token, other: await otherTenantAdmin(s, ...otherTenant) };
}

/** The signed-in administrator of a new tenant (granted everything): the other village of isolation tests. */
export async function otherTenantAdmin(s: TestServer, tenantId: string, name: string, account: string) {
  await makeTenant(s.database.db, tenantId, name);
  const role = await makeRole(s.database.db, tenantId, 'administrator');
  await grantCodes(s.database.db, role, 'all');
  return (await signedInUser(s, account, [role], tenantId)).token;
}

/** A user holding `roleIds` (in the root dept when in tenant 000000), signed in with the password grant. */
export async function signedInUser(
  s: TestServer,
  account: string,
  roleIds: string[],
  tenantId = '000000',
): Promise<{ id: string; token: string }> {
  const id = await makeUser(s.database.db, {
    account,
    roleIds,
    tenantId,
    deptId: tenantId === '000000' ? SEED.rootDeptId : undefined,
  });
  const res = await tokenRequest(s, {
    grant_type: 'password',
    username: account,
    password: md5Hex('pass'),
    tenantId,
  });
  return { id, token: res.json().access_token as string };
}

export async function makeRole(db: Db, tenantId: string, alias: string, name = alias) {
  const [r] = await db
    .insert(schema.role)
    .values({ tenantId, roleName: name, roleAlias: alias })
    .returning({ id: schema.role.id });
  return r.id;
}

/** Replaces a role's granted codes (menus and buttons) and drops the caches that remember grants. */
export async function grantCodes(db: Db, roleId: string, codes: string[] | 'all') {
  await db.delete(schema.roleMenu).where(eq(schema.roleMenu.roleId, roleId));
  const menus = await db
    .select({ id: schema.menu.id })
    .from(schema.menu)
    .where(
      codes === 'all'
        ? eq(schema.menu.isDeleted, 0)
        : and(inArray(schema.menu.code, codes), eq(schema.menu.isDeleted, 0)),
    );
  if (menus.length) await db.insert(schema.roleMenu).values(menus.map((m) => ({ roleId, menuId: m.id })));
  clearCaches();
}

export function clearCaches() {
  dropAccessCaches();
  forgetAllCounts();
}

export async function makeTenant(db: Db, tenantId: string, name: string) {
  await db.insert(schema.tenant).values({ tenantId, tenantName: name });
}

export const uniqueName = (prefix: string) => `${prefix}${++counter}`;

/** The rows a list answered: a page's records, or every node of a tree. */
export function listedRows(data: unknown): ({ id: string } & Record<string, unknown>)[] {
  if (Array.isArray(data)) {
    const out: ({ id: string } & Record<string, unknown>)[] = [];
    const walk = (nodes: ({ id: string; children?: unknown[] } & Record<string, unknown>)[]) => {
      for (const n of nodes) {
        out.push(n);
        if (Array.isArray(n.children)) walk(n.children as never);
      }
    };
    walk(data as never);
    return out;
  }
  return (data as { records: ({ id: string } & Record<string, unknown>)[] }).records;
}

/** The columns of the user import (用户管理 → 导入), in the order of its template. */
export const USER_SHEET_HEADER = [
  '登录账号',
  '用户姓名',
  '用户昵称',
  '手机号码',
  '电子邮箱',
  '用户性别',
  '用户生日',
  '所属角色',
  '所属机构',
];

/** An .xlsx whose first sheet is the header row and then the rows. */
export async function xlsxOf(header: string[], rows: (string | number | Date | null)[][]) {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Sheet1');
  sheet.addRow(header);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The first sheet of an .xlsx answer, each row's cells as text. */
export async function readSheet(body: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const rows: string[][] = [];
  wb.worksheets[0].eachRow((row) =>
    rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ''))),
  );
  return rows;
}

/** Posts a file as the multipart field `file`, as the import dialogs do. */
export function uploadFile(s: TestServer, token: string, url: string, buf: Buffer, name = 'rows.xlsx') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(buf)]), name);
  return s.app.inject({ method: 'POST', url, headers: auth(token), payload: form });
}

/** a port nobody listens on now (for a sandbox, or a server a peer must reach over HTTP) */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** `tsx <script> …args` from the repository's root, its output gathered as it comes. */
export function spawnTsx(script: string, args: string[], env: NodeJS.ProcessEnv) {
  const repoRoot = join(serverRoot, '../..');
  const child = spawn(join(repoRoot, 'node_modules/.bin/tsx'), [script, ...args], { cwd: repoRoot, env });
  const output = { out: '', err: '' };
  child.stdout.on('data', (c) => {
    output.out += c;
  });
  child.stderr.on('data', (c) => {
    output.err += c;
  });
  return { child, output };
}

/** A server tool (`src/tools/<name>.ts`) run through tsx from the repository's root: its exit code and output. */
export function runTool(name: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number; out: string; err: string }>((resolve) => {
    const { child, output } = spawnTsx(join(serverRoot, `src/tools/${name}.ts`), args, env);
    child.on('close', (code) => resolve({ code: code ?? -1, ...output }));
  });
}
