import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { DEVELOP_DEMO } from '@smart/contracts';
import { sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withHeader } from '../src/modules/develop/codegen';
import { areaServer, grantCodes, makeRole, recordedCalls, signedInUser } from './fixtures';
import { auth, dbKind, type TestServer } from './harness';

/**
 * 代码生成 (issue 36): a model of a fixture table of the product's own database made into this product's
 * code. The preview is deterministic, the zip's entries are the preview's files byte for byte, headers tell
 * untouched files from hand-edited ones, `copy` keeps names unique; and, in a scratch copy of the
 * repository with the zip unpacked into it, the generated files type-check and the generated test passes
 * (on PGlite: it is about the code).
 */

const ROOT = resolve(__dirname, '../../..');
let s: TestServer;
let token: string;
let other: string;
const { get, post } = recordedCalls(
  () => s,
  '/api/dfem-develop',
  () => token,
);

const FIXTURE = 'codegen_fixture_kit';
const PART = 'codegen_fixture_part';
const NODE = 'codegen_fixture_node';
let modelId = '';
let codeId = '';
/** the master-detail and tree settings of the scratch copy */
let subCodeId = '';
let treeCodeId = '';

/** a model of a table of the product's own database, its prototypes as 读取字段 reads them */
async function model(table: string, modelCode: string, tweak = (p: Record<string, unknown>) => p) {
  const info = await get(`/model/table-info?datasourceId=${DEVELOP_DEMO.ownSourceId}&tableName=${table}`);
  expect(info.statusCode, info.body).toBe(200);
  const r = await post('/model/submit', {
    datasourceId: DEVELOP_DEMO.ownSourceId,
    modelName: modelCode,
    modelCode,
    modelTable: table,
    modelClass: modelCode[0].toUpperCase() + modelCode.slice(1),
    prototypes: info.json().data.prototypes.map(tweak),
  });
  expect(r.statusCode, r.body).toBe(200);
  return String(r.json().data.id);
}

beforeAll(async () => {
  ({ s, token, other } = await areaServer(['370002', '代码别村', 'codegen_other']));
  const db = s.database.db;
  await db.execute(sql.raw(`drop table if exists ${FIXTURE}`));
  await db.execute(
    sql.raw(`create table ${FIXTURE} (
      id bigint primary key, tenant_id varchar(12) not null default '000000',
      kit_name varchar(40) not null, colour varchar(10), price numeric(10,2), pieces integer,
      made_on date, checked_at timestamp, is_open boolean, note text,
      create_user bigint, create_dept bigint, create_time timestamp, update_user bigint,
      update_time timestamp, status integer, is_deleted integer)`),
  );
  for (const [table, columns] of [
    [PART, 'kit_id bigint not null, part_name varchar(40) not null, quantity integer'],
    [NODE, 'parent_id bigint, node_name varchar(40) not null, sort integer'],
  ]) {
    await db.execute(sql.raw(`drop table if exists ${table}`));
    await db.execute(sql.raw(`create table ${table} (id bigint primary key, ${columns})`));
  }
  await db.execute(sql.raw(`comment on column ${FIXTURE}.kit_name is '套件名称'`));
  await db.execute(sql.raw(`comment on column ${FIXTURE}.colour is '颜色'`));
  const kit = (p: Record<string, unknown>) =>
    p.jdbcName === 'kit_name'
      ? { ...p, isQuery: 1, queryType: 'like' }
      : p.jdbcName === 'colour'
        ? { ...p, componentType: 'select', dictCode: 'sex', isQuery: 1 }
        : p;
  modelId = await model(FIXTURE, 'fixtureKit', kit);
  const settings = async (body: Record<string, unknown>) => {
    const r = await post('/code/submit', { codeNameEn: 'Fixtures', serviceName: 'dfem-fixture', ...body });
    expect(r.statusCode, r.body).toBe(200);
    return String(r.json().data.id);
  };
  subCodeId = await settings({
    codeName: '夹具箱',
    routePrefix: 'fixturebox',
    modelId: await model(FIXTURE, 'fixtureBox', kit),
    templateType: 'sub',
    subModelId: await model(PART, 'fixturePart'),
    subForeignKey: 'kitId',
  });
  treeCodeId = await settings({
    codeName: '夹具树',
    routePrefix: 'fixturenode',
    modelId: await model(NODE, 'fixtureNode'),
    templateType: 'tree',
  });
  const code = await post('/code/submit', {
    codeName: '夹具套件',
    codeNameEn: 'Fixture kits',
    serviceName: 'dfem-fixture',
    routePrefix: 'fixture',
    modelId,
    templateType: 'single',
  });
  expect(code.statusCode, code.body).toBe(200);
  codeId = String(code.json().data.id);
}, 60_000);
afterAll(async () => {
  for (const table of [FIXTURE, PART, NODE])
    await s?.database.db.execute(sql.raw(`drop table if exists ${table}`));
  await s?.close();
});

type Previewed = { path: string; content: string; state: string; write: boolean };
const preview = async (body: object, tk = token) => post('/code/preview', body, tk);
const files = async (): Promise<Previewed[]> => {
  const r = await preview({ id: codeId });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data.files;
};
const zip = async (id = codeId, tk = token) => {
  const r = await s.app.inject({
    method: 'GET',
    url: `/api/dfem-develop/code/gen-code?id=${id}&system=smart`,
    headers: auth(tk),
  });
  return r;
};

describe('generation', () => {
  it('previews every file, deterministically, each with its hash header', async () => {
    const first = await files();
    expect(first.map((f) => f.path)).toEqual([
      'packages/contracts/src/resource/fixtureKit.ts',
      'apps/server/drizzle/codegen/fixtureKit.sql',
      'apps/server/src/modules/fixtureKit/area.ts',
      'apps/web/src/features/fixtureKit/pages.ts',
      'apps/server/test/fixtureKit.generated.test.ts',
    ]);
    expect(await files()).toEqual(first);
    for (const f of first) {
      expect(f.content).toMatch(/^(\/\/|--) @generated sha256:[0-9a-f]{64}\n/);
      expect(f.state).toBe('new');
    }
    const contracts = first[0].content;
    expect(contracts).toContain(
      "text('kitName', L('套件名称', 'Kit name'), 40, { required: true, search: 'like' })",
    );
    expect(contracts).toContain("dict('colour', L('颜色', 'Colour'), SYSTEM_DICT.sex, { search: 'equal' })");
    expect(contracts).toContain("flag('isOpen'");
    expect(contracts).toContain("date('madeOn'");
    expect(contracts).not.toContain("'tenantId'");
    expect(first[1].content).toContain(`CREATE TABLE "${FIXTURE}"`);
  });

  it('master-detail: the detail is a child resource keyed by the master; a tree is a tree', async () => {
    const sub = await preview({ id: subCodeId });
    expect(sub.statusCode, sub.body).toBe(200);
    const [contracts] = sub.json().data.files as Previewed[];
    expect(contracts.path).toBe('packages/contracts/src/resource/fixtureBox.ts');
    expect(contracts.content).toContain('export const fixturePartResource = resource(');
    expect(contracts.content).toContain("via: 'kitId'");
    expect(contracts.content).toContain(
      "{ name: 'kitId', label: L('夹具箱', 'Fixtures'), type: 'ref', ref: 'fixtureBox'",
    );
    const tree = await preview({ id: treeCodeId });
    expect(tree.json().data.files[0].content).toContain('tree: true');
  });

  it('gen-code answers a zip whose entries are exactly the preview, byte for byte, the same each time', async () => {
    const r = await zip();
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toBe('application/zip');
    const entries = unzipSync(new Uint8Array(r.rawPayload));
    const previewed = await files();
    expect(Object.keys(entries)).toEqual(previewed.map((f) => f.path));
    for (const f of previewed)
      expect(Buffer.from(entries[f.path]).equals(Buffer.from(f.content, 'utf8'))).toBe(true);
    expect((await zip()).rawPayload.equals(r.rawPayload)).toBe(true);
  });

  it('regeneration overwrites untouched files and reports the hand-edited ones', async () => {
    const [contracts, migration, area, pages, test] = await files();
    const older = withHeader(area.path, '// an older generation\n');
    const r = await preview({
      id: codeId,
      current: {
        [contracts.path]: contracts.content,
        [migration.path]: `${migration.content}-- edited by hand\n`,
        [area.path]: older,
        [pages.path]: '// written by hand, no header\n',
      },
    });
    expect(r.statusCode, r.body).toBe(200);
    const states = Object.fromEntries(
      (r.json().data.files as Previewed[]).map((f) => [f.path, [f.state, f.write]]),
    );
    expect(states).toEqual({
      [contracts.path]: ['same', false],
      [migration.path]: ['edited', false],
      [area.path]: ['update', true],
      [pages.path]: ['foreign', false],
      [test.path]: ['new', true],
    });
  });

  it('copy duplicates a setting as name-copy, then name-copy2', async () => {
    const a = await post('/code/copy', { id: codeId });
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json().data.codeName).toBe('夹具套件-copy');
    const b = await post(`/code/copy?id=${codeId}`);
    expect(b.json().data.codeName).toBe('夹具套件-copy2');
    const detail = await get(`/code/detail?id=${a.json().data.id}`);
    expect(detail.json().data).toMatchObject({
      modelId,
      serviceName: 'dfem-fixture',
      routePrefix: 'fixture',
    });
    const listed = await get('/code/list?codeName=夹具套件');
    expect(listed.statusCode).toBe(200);
  });
});

describe('what an attacker would try', () => {
  it("another tenant's ids are not found", async () => {
    expect((await preview({ id: codeId }, other)).statusCode).toBe(404);
    expect((await zip(codeId, other)).statusCode).toBe(404);
    expect((await post('/code/copy', { id: codeId }, other)).statusCode).toBe(404);
    expect((await get(`/code/detail?id=${codeId}`, other)).statusCode).toBe(404);
    // a code row of theirs naming our model: the reference is refused
    const theirs = await post(
      '/code/submit',
      {
        codeName: '越权',
        codeNameEn: 'Theirs',
        serviceName: 'dfem-x',
        routePrefix: 'x',
        modelId,
        templateType: 'single',
      },
      other,
    );
    expect(theirs.statusCode).toBe(400);
  });

  it('preview and download need their buttons, copy the add code', async () => {
    const role = await makeRole(s.database.db, '000000', 'code_viewer');
    await grantCodes(s.database.db, role, ['code', 'code_view']);
    const viewer = (await signedInUser(s, 'code_viewer', [role])).token;
    expect((await get(`/code/detail?id=${codeId}`, viewer)).statusCode).toBe(200);
    expect((await preview({ id: codeId }, viewer)).statusCode).toBe(403);
    expect((await zip(codeId, viewer)).statusCode).toBe(403);
    expect((await post('/code/copy', { id: codeId }, viewer)).statusCode).toBe(403);
  });

  it('bad input is a 400, never a 500', async () => {
    const bad = [
      await preview({ id: 'abc' }),
      await preview({ id: codeId, current: { 'a.ts': 1 } }),
      await preview({ id: codeId, extra: 1 }),
      await zip('1;drop'),
      await s.app.inject({
        method: 'GET',
        url: `/api/dfem-develop/code/gen-code?id=${codeId}&system=../x`,
        headers: auth(token),
      }),
      await post('/code/copy', {}),
      await post('/code/submit', {
        codeName: 'x',
        codeNameEn: 'x',
        serviceName: 'farm',
        routePrefix: 'Farm',
        modelId,
        templateType: 'single',
      }),
      await post('/code/submit', {
        codeName: 'y',
        codeNameEn: 'y',
        serviceName: 'dfem-y',
        routePrefix: 'y',
        modelId,
        templateType: 'sub',
      }),
    ];
    expect(bad.map((r) => r.statusCode)).toEqual(bad.map(() => 400));
    expect((await preview({ id: '1190000000000000999' })).statusCode).toBe(404);
  });
});

/**
 * The zip unpacked into a scratch copy of the repository: the generated contracts file type-checks with
 * the package, the server's and web's entries with theirs, and the generated test passes against the
 * copy's own server (PGlite). Runs on PGlite only: it is about the code.
 */
describe('the generated code in a scratch copy of the repository', () => {
  it.skipIf(dbKind !== 'pglite')(
    'type-checks and its test passes',
    async () => {
      const r = await zip();
      expect(r.statusCode).toBe(200);
      const scratch = mkdtempSync(join(tmpdir(), 'smart-codegen-'));
      try {
        const listed = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
          cwd: ROOT,
          encoding: 'utf8',
        });
        for (const f of listed.stdout.split('\0').filter(Boolean)) {
          if (f.startsWith('e2e/') || f.startsWith('docs/') || f.startsWith('bench/')) continue;
          mkdirSync(dirname(join(scratch, f)), { recursive: true });
          try {
            cpSync(join(ROOT, f), join(scratch, f));
          } catch {
            // a file git lists but the tree no longer has
          }
        }
        const modules = join(scratch, 'node_modules');
        mkdirSync(join(modules, '@smart'), { recursive: true });
        for (const e of readdirSync(join(ROOT, 'node_modules')))
          if (!['@smart', '.tsout', '.vite', '.vitest'].includes(e))
            symlinkSync(join(ROOT, 'node_modules', e), join(modules, e));
        for (const [name, path] of Object.entries({
          contracts: 'packages/contracts',
          server: 'apps/server',
          web: 'apps/web',
        }))
          symlinkSync(join(scratch, path), join(modules, '@smart', name));
        for (const answer of [r, await zip(subCodeId), await zip(treeCodeId)]) {
          expect(answer.statusCode).toBe(200);
          for (const [path, bytes] of Object.entries(unzipSync(new Uint8Array(answer.rawPayload)))) {
            mkdirSync(dirname(join(scratch, path)), { recursive: true });
            writeFileSync(join(scratch, path), strFromU8(bytes));
          }
        }
        const env: NodeJS.ProcessEnv = {};
        for (const [k, v] of Object.entries(process.env))
          if (!/^(VITEST|TEST_|REDIS_URL|MQTT_TEST_URL|NODE_OPTIONS)/.test(k)) env[k] = v;
        env.NO_COLOR = '1';
        const run = (cmd: string, args: string[]) => {
          const p = spawnSync(cmd, args, { cwd: scratch, env, encoding: 'utf8', maxBuffer: 64 << 20 });
          return { ok: p.status === 0, out: `${p.stdout}\n${p.stderr}` };
        };
        // the generated files with what they import, each end with its own settings (and its declarations)
        const project = (dir: string, files: string[]) => {
          writeFileSync(
            join(scratch, dir, 'tsconfig.codegen.json'),
            JSON.stringify({
              extends: './tsconfig.json',
              compilerOptions: {
                composite: false,
                noEmit: true,
                emitDeclarationOnly: false,
                incremental: false,
              },
              include: ['src/**/*.d.ts'],
              files,
            }),
          );
          return run('npx', ['tsc', '-p', `${dir}/tsconfig.codegen.json`]);
        };
        const names = ['fixtureKit', 'fixtureBox', 'fixtureNode'];
        const server = project(
          'apps/server',
          names.flatMap((n) => [
            `../../packages/contracts/src/resource/${n}.ts`,
            `src/modules/${n}/area.ts`,
            `test/${n}.generated.test.ts`,
          ]),
        );
        expect(server.ok, server.out).toBe(true);
        const web = project(
          'apps/web',
          names.map((n) => `src/features/${n}/pages.ts`),
        );
        expect(web.ok, web.out).toBe(true);
        // each template's generated test
        const test = run('npx', [
          'vitest',
          'run',
          'apps/server/test/fixtureKit.generated.test.ts',
          'apps/server/test/fixtureBox.generated.test.ts',
          'apps/server/test/fixtureNode.generated.test.ts',
          '--project',
          'api',
        ]);
        expect(test.ok, test.out).toBe(true);
        expect(test.out).toMatch(/Tests\s+6 passed/);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    },
    240_000,
  );
});
