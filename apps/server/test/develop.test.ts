import { DATASOURCE_KIND, DEVELOP_DEMO } from '@smart/contracts';
import { sql } from 'drizzle-orm';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaServer, grantCodes, makeRole, recordedCalls, signedInUser } from './fixtures';
import type { TestServer } from './harness';

/**
 * 研发工具, first slice of issue 36: data sources (structured, options allow-listed, the password
 * write-only, a rate-limited connection test behind its button, the product's own database read-only) and
 * models read from real databases — this machine's PostgreSQL and MariaDB, and the product's own — with
 * their comments, their fields' prototypes, and a sync that shows what changed before applying it.
 */

let s: TestServer;
let token: string;
let other: string;
const { get, post, answers } = recordedCalls(
  () => s,
  '/api/dfem-develop',
  () => token,
);

const PG = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' };
const MY = { host: '127.0.0.1', port: 3306, user: 'smart_dev', database: 'smart_dev_fixture' };
const MY_PASSWORD = 'Dev-Source-Pw-42';
const PASSWORD = 'Never-Answered-7x3q';
let pgUp = false;
let myUp = false;

async function pgAdmin<T>(use: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ ...PG, connectionTimeoutMillis: 3000 });
  await c.connect();
  try {
    return await use(c);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  ({ s, token, other } = await areaServer(['370001', '研发别村', 'develop_other']));
  // a fixture table with comments in the machine's PostgreSQL and MariaDB (CI starts both)
  pgUp = await pgAdmin(async (c) => {
    await c.query('drop table if exists dev_fixture_farm');
    await c.query(
      'create table dev_fixture_farm (id bigint primary key, farm_name varchar(64) not null, area_mu numeric(10,2), planted_on date)',
    );
    await c.query(`comment on table dev_fixture_farm is '农场'`);
    await c.query(`comment on column dev_fixture_farm.farm_name is '农场名称'`);
    await c.query(`insert into dev_fixture_farm values (1, '东湾', 12.5, '2026-03-01')`);
    return true;
  }).catch(() => false);
  myUp = await (async () => {
    // as the machine's root (no password), a user with a password and read access to the fixture database
    const c = await mysql.createConnection({ host: MY.host, port: MY.port, user: 'root', password: '' });
    try {
      await c.query('create database if not exists smart_dev_fixture');
      for (const host of ['127.0.0.1', 'localhost']) {
        await c.query(`create user if not exists 'smart_dev'@'${host}' identified by '${MY_PASSWORD}'`);
        await c.query(`grant select on smart_dev_fixture.* to 'smart_dev'@'${host}'`);
      }
      await c.query('drop table if exists smart_dev_fixture.dev_fixture_farm');
      await c.query(
        "create table smart_dev_fixture.dev_fixture_farm (id bigint primary key, farm_name varchar(64) not null comment '农场名称', area_mu decimal(10,2)) comment '农场'",
      );
      return true;
    } finally {
      await c.end();
    }
  })().catch(() => false);
}, 60_000);
afterAll(async () => {
  await s?.close();
  if (pgUp) await pgAdmin((c) => c.query('drop table if exists dev_fixture_farm')).catch(() => undefined);
});

async function source(body: Record<string, unknown>, tk = token): Promise<string> {
  const r = await post('/datasource/submit', body, tk);
  expect(r.statusCode, r.body).toBe(200);
  return String(r.json().data.id);
}
const pgSource = (name = `pg-${Date.now()}`) =>
  source({
    name,
    kind: DATASOURCE_KIND.postgres,
    host: PG.host,
    port: PG.port,
    databaseName: PG.database,
    username: PG.user,
    password: PASSWORD,
    options: 'sslmode=disable',
  });

describe('data sources', () => {
  it('the product’s own database is there, read-only: its tables listed, never edited or removed', async () => {
    const tables = await get(`/model/table-list?datasourceId=${DEVELOP_DEMO.ownSourceId}`);
    expect(tables.statusCode, tables.body).toBe(200);
    expect(tables.json().data.map((t: { name: string }) => t.name)).toContain('blade_param');
    const edit = await post('/datasource/submit', { id: DEVELOP_DEMO.ownSourceId, name: '改名', kind: '0' });
    expect(edit.statusCode).toBe(400);
    expect((await post(`/datasource/remove?ids=${DEVELOP_DEMO.ownSourceId}`)).statusCode).toBe(409);
  });

  it('a PostgreSQL source: tested, its tables and comments read through the table’s oid (a TRUNCATE keeps them)', async () => {
    if (!pgUp) return expect.fail('PostgreSQL at 127.0.0.1:5432 is needed (CI starts it)');
    const id = await pgSource();
    const test = await post('/datasource/test', { id });
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json().data).toMatchObject({ ok: true });
    expect(test.json().data.version).toMatch(/PostgreSQL/);
    await pgAdmin((c) => c.query('truncate dev_fixture_farm'));
    const list = (await get(`/model/table-list?datasourceId=${id}`)).json().data as {
      name: string;
      comment: string;
    }[];
    expect(list.find((t) => t.name === 'dev_fixture_farm')?.comment).toBe('农场');
    const info = await get(`/model/table-info?datasourceId=${id}&tableName=dev_fixture_farm`);
    expect(info.statusCode, info.body).toBe(200);
    const cols = info.json().data.columns as {
      name: string;
      comment: string | null;
      primaryKey: boolean;
      type: string;
    }[];
    expect(cols.map((c) => c.name)).toEqual(['id', 'farm_name', 'area_mu', 'planted_on']);
    expect(cols[1]).toMatchObject({ comment: '农场名称', type: 'character varying(64)' });
    expect(cols[0].primaryKey).toBe(true);
    expect(info.json().data.prototypes[1]).toMatchObject({
      propertyName: 'farmName',
      propertyType: 'String',
      isRequired: 1,
    });
    expect(info.json().data.prototypes[3]).toMatchObject({
      propertyName: 'plantedOn',
      componentType: 'date',
    });
  });

  it('a MariaDB source: its tables and comments from information_schema', async () => {
    if (!myUp) return expect.fail('MariaDB at 127.0.0.1:3306 is needed (CI starts it)');
    const id = await source({
      name: 'maria',
      kind: DATASOURCE_KIND.mysql,
      host: MY.host,
      port: MY.port,
      databaseName: MY.database,
      username: MY.user,
      password: MY_PASSWORD,
      options: 'charset=utf8mb4',
    });
    const test = (await post('/datasource/test', { id })).json().data;
    expect(test).toMatchObject({ ok: true });
    expect(test.version).toMatch(/MariaDB/);
    const list = await get(`/model/table-list?datasourceId=${id}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data).toEqual([{ name: 'dev_fixture_farm', comment: '农场' }]);
    const info = (await get(`/model/table-info?datasourceId=${id}&tableName=dev_fixture_farm`)).json().data;
    expect(info.columns.map((c: { name: string }) => c.name)).toEqual(['id', 'farm_name', 'area_mu']);
    expect(info.columns[1]).toMatchObject({ comment: '农场名称', type: 'varchar(64)', notNull: true });
    expect(info.prototypes[2]).toMatchObject({ propertyName: 'areaMu', propertyType: 'BigDecimal' });
    // a wrong password: the driver's own refusal
    const wrong = await source({
      name: 'maria-wrong',
      kind: DATASOURCE_KIND.mysql,
      host: MY.host,
      port: MY.port,
      databaseName: MY.database,
      username: MY.user,
      password: 'wrong',
    });
    expect((await post('/datasource/test', { id: wrong })).json().data).toMatchObject({
      ok: false,
      code: 'ER_ACCESS_DENIED_ERROR',
    });
  });

  it('options that read a server file or load a local file are refused (400 naming the option)', async () => {
    const base = {
      name: 'bad',
      host: PG.host,
      port: PG.port,
      databaseName: PG.database,
      username: PG.user,
      password: PASSWORD,
    };
    for (const [kind, options] of [
      [DATASOURCE_KIND.postgres, 'sslrootcert=/etc/passwd'],
      [DATASOURCE_KIND.postgres, 'sslmode=disable&sslkey=/etc/shadow'],
      [DATASOURCE_KIND.postgres, 'sslmode=disable;host=evil'],
      [DATASOURCE_KIND.mysql, 'allowLoadLocalInfile=true'],
      [DATASOURCE_KIND.mysql, 'infileStreamFactory=x'],
    ]) {
      const r = await post('/datasource/submit', { ...base, kind, options });
      expect(r.statusCode, `${options} → ${r.body}`).toBe(400);
      expect(r.json().msg).toContain('不允许的连接参数');
    }
    // a host with a path or credentials is no host
    const r = await post('/datasource/submit', { ...base, kind: '1', host: 'user@evil/x' });
    expect(r.statusCode).toBe(400);
  });

  it('the password is never answered; an edit without it keeps it (the test still connects)', async () => {
    if (!pgUp) return expect.fail('PostgreSQL is needed');
    const id = await pgSource('pg-keep');
    const detail = (await get(`/datasource/detail?id=${id}`)).json().data;
    expect(detail).not.toHaveProperty('password');
    expect(detail.url).toBe('jdbc:postgresql://127.0.0.1:5432/postgres?sslmode=disable');
    expect((await post('/datasource/submit', { ...detail, password: '', remark: '改' })).statusCode).toBe(
      200,
    );
    expect((await post('/datasource/test', { id })).json().data.ok).toBe(true);
    expect(answers.some((a) => a.includes(PASSWORD))).toBe(false);
    expect(s.logs.some((l) => l.includes(PASSWORD))).toBe(false);
  });

  it('a wrong port is the driver’s own code, never a 500', async () => {
    const id = await source({
      name: 'closed',
      kind: '1',
      host: '127.0.0.1',
      port: 1,
      databaseName: 'x',
      username: 'x',
      password: 'x',
    });
    const r = await post('/datasource/test', { id });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toMatchObject({ ok: false, code: 'ECONNREFUSED' });
    expect((await get(`/model/table-list?datasourceId=${id}`)).statusCode).toBe(400);
  });
});

describe('models', () => {
  let modelId = '';
  it('a model of a table of the product’s own database, its prototypes written with it; a missing table is a 400', async () => {
    const missing = await post('/model/submit', {
      datasourceId: DEVELOP_DEMO.ownSourceId,
      modelName: '无',
      modelCode: 'none',
      modelTable: 'no_such_table',
      modelClass: 'None',
    });
    expect(missing.statusCode).toBe(400);
    await s.database.db.execute(
      sql.raw('create table if not exists dev_own_fixture (id bigint primary key, crop_name varchar(32))'),
    );
    await s.database.db.execute(sql.raw(`comment on column dev_own_fixture.crop_name is '作物'`));
    const info = (
      await get(`/model/table-info?datasourceId=${DEVELOP_DEMO.ownSourceId}&tableName=dev_own_fixture`)
    ).json().data;
    expect(info.columns[1]).toMatchObject({ name: 'crop_name', comment: '作物' });
    const r = await post('/model/submit', {
      datasourceId: DEVELOP_DEMO.ownSourceId,
      modelName: '作物',
      modelCode: 'crop',
      modelTable: 'dev_own_fixture',
      modelClass: 'Crop',
      prototypes: info.prototypes,
    });
    expect(r.statusCode, r.body).toBe(200);
    modelId = String(r.json().data.id);
    const listed = await get(`/model-prototype/list?modelId=${modelId}`);
    expect(
      listed
        .json()
        .data.records.map((p: { jdbcName: string }) => p.jdbcName)
        .sort(),
    ).toEqual(['crop_name', 'id']);
    const select = await get(`/model-prototype/select?modelId=${modelId}`);
    expect(select.json().data.map((p: { propertyName: string }) => p.propertyName)).toEqual([
      'id',
      'cropName',
    ]);
  });

  it('sync shows the added, removed and changed columns, and applies them only when asked', async () => {
    await s.database.db.execute(sql.raw('alter table dev_own_fixture add column sown_on date'));
    await s.database.db.execute(sql.raw('alter table dev_own_fixture drop column crop_name'));
    const look = await post('/model/sync', { id: modelId });
    expect(look.statusCode, look.body).toBe(200);
    expect(look.json().data).toMatchObject({
      added: ['sown_on'],
      removed: ['crop_name'],
      changed: [],
      applied: false,
    });
    expect((await get(`/model-prototype/select?modelId=${modelId}`)).json().data).toHaveLength(2);
    const apply = await post('/model/sync', { id: modelId, apply: true });
    expect(apply.json().data.applied).toBe(true);
    const names = (await get(`/model-prototype/select?modelId=${modelId}`))
      .json()
      .data.map((p: { jdbcName: string }) => p.jdbcName);
    expect(names.sort()).toEqual(['id', 'sown_on']);
    expect((await post('/model/sync', { id: modelId })).json().data).toMatchObject({
      added: [],
      removed: [],
      changed: [],
    });
  });

  it('submit-list edits and adds prototypes by the definition’s rules', async () => {
    const [first] = (await get(`/model-prototype/select?modelId=${modelId}`)).json().data as { id: string }[];
    const ok = await post('/model-prototype/submit-list', [
      { id: first.id, isQuery: 1, queryType: 'between' },
      { modelId, jdbcName: 'extra_col', jdbcType: 'text', propertyName: 'extraCol', propertyType: 'String' },
    ]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.ids).toHaveLength(2);
    const bad = await post('/model-prototype/submit-list', [{ id: first.id, propertyName: 'Not A Name' }]);
    expect(bad.statusCode).toBe(400);
    const tooLong = await post('/model-prototype/submit-list', [
      { id: first.id, jdbcComment: 'x'.repeat(256) },
    ]);
    expect(tooLong.statusCode).toBe(400);
    // one bad row writes none of the others
    const before = (await get(`/model-prototype/select?modelId=${modelId}`)).json().data.length;
    const mixed = await post('/model-prototype/submit-list', [
      { modelId, jdbcName: 'fine_col', jdbcType: 'text', propertyName: 'fineCol', propertyType: 'String' },
      { modelId, jdbcName: 'bad col', jdbcType: 'text', propertyName: 'badCol', propertyType: 'String' },
    ]);
    expect(mixed.statusCode).toBe(400);
    expect((await get(`/model-prototype/select?modelId=${modelId}`)).json().data.length).toBe(before);
  });

  it('a model a code generation setting uses is not removed', async () => {
    const code = await post('/code/submit', {
      codeName: '作物代码',
      codeNameEn: 'Crop code',
      serviceName: 'dfem-crop',
      routePrefix: 'crop',
      modelId,
      templateType: 'single',
    });
    expect(code.statusCode, code.body).toBe(200);
    const refused = await post(`/model/remove?ids=${modelId}`);
    expect(refused.statusCode, refused.body).toBe(409);
    expect((await post(`/code/remove?ids=${code.json().data.id}`)).statusCode).toBe(200);
  });

  afterAll(async () => {
    await s.database.db.execute(sql.raw('drop table if exists dev_own_fixture'));
  });
});

describe('what an attacker would try', () => {
  it('another tenant: our sources and models are not found', async () => {
    if (!pgUp) return expect.fail('PostgreSQL is needed');
    const id = await pgSource('pg-mine');
    expect((await post('/datasource/test', { id }, other)).statusCode).toBe(404);
    expect((await get(`/model/table-list?datasourceId=${id}`, other)).statusCode).toBe(404);
    expect((await get(`/datasource/detail?id=${id}`, other)).statusCode).toBe(404);
    expect((await get(`/model/table-list?datasourceId=${DEVELOP_DEMO.ownSourceId}`, other)).statusCode).toBe(
      404,
    );
  });

  it('the connection test needs its button, and is limited to 5 a minute', async () => {
    const role = await makeRole(s.database.db, '000000', 'dev_viewer');
    await grantCodes(s.database.db, role, ['datasource', 'datasource_view', 'model', 'model_view']);
    const viewer = (await signedInUser(s, 'dev_viewer', [role])).token;
    const id = await source({
      name: 'limit',
      kind: '1',
      host: '127.0.0.1',
      port: 1,
      databaseName: 'x',
      username: 'x',
      password: 'x',
    });
    expect((await post('/datasource/test', { id }, viewer)).statusCode).toBe(403);
    expect((await post('/model/sync', { id: '1' }, viewer)).statusCode).toBe(403);
    expect((await post('/model-prototype/submit-list', [{ id: '1' }], viewer)).statusCode).toBe(403);
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await post('/datasource/test', { id })).statusCode);
    expect(codes.slice(-1)).toEqual([429]);
  });

  it('bad input is a 400, never a 500', async () => {
    for (const url of [
      `/model/table-info?datasourceId=${DEVELOP_DEMO.ownSourceId}&tableName=x;drop%20table%20blade_user`,
      `/model/table-info?datasourceId=abc&tableName=blade_param`,
      '/model/table-info?tableName=blade_param',
      '/model/table-list',
      '/model-prototype/select?modelId=x',
    ]) {
      const r = await get(url);
      expect(r.statusCode, `${url} → ${r.body}`).toBe(400);
    }
    expect((await post('/model-prototype/submit-list', [])).statusCode).toBe(400);
    expect((await post('/model-prototype/submit-list', { id: 1 })).statusCode).toBe(400);
    expect((await post('/model/sync', { id: 'x' })).statusCode).toBe(400);
    expect(
      (
        await post('/datasource/submit', {
          name: 'p',
          kind: '1',
          host: 'h',
          port: 70000,
          databaseName: 'd',
          username: 'u',
          password: 'p',
        })
      ).statusCode,
    ).toBe(400);
  });
});
