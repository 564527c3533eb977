import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind } from './harness';

/**
 * The README's recipe "How to add an area", followed literally in a scratch copy of the repository: a
 * fixture area of two plain entities (one with a child resource) and a dictionary is its contracts file,
 * its server folder and its web folder, plus one line in each end's list of areas — then drizzle-kit writes
 * its migration. Nothing else is touched (the copy's files are compared before and after), and in the copy
 * the types check, the menu, the dictionary, the routes (children included), the list page and the
 * generated tests work for the new area. Runs once (on PGlite): it is about the code, not the database.
 */

const ROOT = resolve(__dirname, '../../..');
const MINUTES = 60_000;
let scratch = '';

/** every file of the working tree that git would keep (tracked or new, not ignored) */
function repoFiles(): string[] {
  const r = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.split('\0').filter(Boolean);
}

/** path → content hash of every file under `dir` (node_modules aside) */
function manifest(dir: string, at = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(join(dir, at), { withFileTypes: true })) {
    const rel = at ? `${at}/${e.name}` : e.name;
    if (e.name === 'node_modules' || e.name === '.git') continue;
    if (e.isDirectory()) for (const [k, v] of manifest(dir, rel)) out.set(k, v);
    else
      out.set(
        rel,
        createHash('sha1')
          .update(readFileSync(join(dir, rel)))
          .digest('hex'),
      );
  }
  return out;
}

/**
 * The copy's node_modules: every package of the repository's, linked, but its own workspace packages (so
 * `@smart/contracts` is the copy's) and its own TypeScript build output.
 */
function linkNodeModules() {
  const from = join(ROOT, 'node_modules');
  const to = join(scratch, 'node_modules');
  mkdirSync(join(to, '@smart'), { recursive: true });
  for (const e of readdirSync(from)) {
    if (e === '@smart' || e === '.tsout' || e === '.vite' || e === '.vitest') continue;
    symlinkSync(join(from, e), join(to, e));
  }
  for (const [name, path] of Object.entries({
    contracts: 'packages/contracts',
    server: 'apps/server',
    web: 'apps/web',
    e2e: 'e2e',
    bench: 'bench',
  }))
    symlinkSync(join(scratch, path), join(to, '@smart', name));
}

/** runs a command in the copy (PGlite only: no other database, store or broker leaks into it) */
function run(cmd: string, args: string[], cwd = scratch) {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(VITEST|TEST_|REDIS_URL|MQTT_TEST_URL|NODE_OPTIONS)/.test(k)) env[k] = v;
  env.NO_COLOR = '1';
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: colours a tool printed anyway
  return { ok: r.status === 0, out: `${r.stdout}\n${r.stderr}`.replace(/\u001b\[[0-9;]*m/g, '') };
}

const write = (path: string, text: string) => {
  mkdirSync(dirname(join(scratch, path)), { recursive: true });
  writeFileSync(join(scratch, path), text);
};
/** adds an import and an entry to one of the ends' lists of areas (the one line the recipe asks for) */
const listArea = (path: string, importLine: string, entry: string) => {
  const file = join(scratch, path);
  const text = readFileSync(file, 'utf8');
  const end = text.lastIndexOf('];');
  writeFileSync(file, `${importLine}\n${text.slice(0, end)}  ${entry},\n${text.slice(end)}`);
};

const CONTRACTS = `import { dictCodes, dictionary, numbered } from './dicts';
import { date, dict, ref, remark, text } from './fields';
import { areaResource, defineArea, L } from './types';

export const FIXTURE_DEMO = { kitId: '1190000000009900001' } as const;

export const FIXTURE_DICTS = [
  dictionary('fixture_colour', L('套件颜色', 'Kit colour'), numbered([['红色', 'Red'], ['绿色', 'Green']])),
];
export const FIXTURE_DICT = dictCodes(FIXTURE_DICTS);

const resource = areaResource('dfem-fixture', 'fixture');

export const fixturePartResource = resource('fixturePart', 'fixture_part', 'ProfileOutlined', L('零件', 'Parts'), 'part', 'fixture_kit', [
  ref('kitId', L('所属套件', 'Kit'), 'fixtureKit', FIXTURE_DEMO.kitId, { required: true }),
  text('name', L('零件名称', 'Part'), 40, { required: true }),
], { unique: [['kitId', 'name']] });

export const fixtureKitResource = resource('fixtureKit', 'fixture_kit', 'AppstoreOutlined', L('套件', 'Kits'), 'kit', 'fixture_kit', [
  text('name', L('套件名称', 'Kit'), 40, { required: true, search: 'like' }),
  dict('colour', L('套件颜色', 'Colour'), FIXTURE_DICT.fixture_colour, { search: 'equal' }),
  remark(),
], {
  select: { label: 'name', search: ['name'] },
  excel: { fileName: L('套件', 'Kits'), export: true },
  children: [{
    name: 'parts', resource: fixturePartResource, via: 'kitId',
    label: L('零件清单', 'Parts'), row: L('第{n}个零件', 'Part {n}'), add: L('添加零件', 'Add a part'),
  }],
});

export const fixtureShelfResource = resource('fixtureShelf', 'fixture_shelf', 'DatabaseOutlined', L('货架', 'Shelves'), 'shelf', 'fixture_shelf', [
  text('code', L('货架编号', 'Shelf'), 20, { required: true, search: 'like' }),
  date('since', L('启用日期', 'In use since')),
], { unique: ['code'] });

export const FIXTURE_AREA = defineArea({
  code: 'fixture',
  label: L('夹具区', 'Fixture area'),
  icon: 'ExperimentOutlined',
  resources: [fixtureKitResource, fixtureShelfResource],
  dicts: FIXTURE_DICTS,
});
`;

const SERVER_AREA = `import { FIXTURE_AREA } from '@smart/contracts/fixture';
import { serverArea } from '../../platform/area';
import { seedFixture } from './seed';

export const fixtureArea = serverArea(FIXTURE_AREA, { seed: [['fixture-v1', seedFixture]] });
`;

const SERVER_SEED = `import { FIXTURE_DEMO, fixtureKitResource } from '@smart/contracts/fixture';
import { tableOf } from '../../platform/crud/model';
import type { Db } from '../../platform/db';
import { SEED } from '../../seed/system';

/** the demo kit the parts' generated tests name */
export async function seedFixture(db: Db) {
  await db.insert(tableOf(fixtureKitResource)).values({
    id: FIXTURE_DEMO.kitId, tenantId: '000000', name: '示例套件', colour: '1',
    createUser: SEED.adminUserId, updateUser: SEED.adminUserId,
  } as never);
}
`;

const WEB_PAGES = `import { areaPages } from '../../platform/pages';

export const fixturePages = areaPages('fixture', () => import('@smart/contracts/fixture').then((m) => m.FIXTURE_AREA));
`;

/** What the area does once added, checked against the copy's own server. */
const CHECK = `import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { serviceCalls } from './fixtures';
import { auth, signIn, startTestServer, type TestServer } from './harness';

let s: TestServer;
let token = '';
const api = serviceCalls(() => s, '/api/dfem-fixture', () => token);
const system = serviceCalls(() => s, '/api/dfem-system', () => token);
const flat = (nodes: { code: string; children?: unknown[] }[]): string[] =>
  nodes.flatMap((n) => [n.code, ...flat((n.children ?? []) as never)]);

describe('the fixture area', () => {
  it('has its menu, its dictionary, its routes and its children', async () => {
    s = await startTestServer();
    token = (await signIn(s)).access_token;
    expect(auth(token)).toBeTruthy();
    const menus = (await system.get('/menu/routes')).json().data;
    expect(flat(menus)).toEqual(expect.arrayContaining(['fixture', 'fixture_kit', 'fixture_shelf']));
    const dict = (await system.get('/dict/dictionary?code=fixture_colour', token, 'en')).json().data;
    expect(dict.map((d: { dictValue: string }) => d.dictValue)).toEqual(['Red', 'Green']);
    const made = await api.post('/fixtureKit/submit', { name: '新套件', colour: '2', parts: [{ name: '螺丝' }, { name: '螺母' }] });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().data.id;
    expect(made.json().data.parts.map((p: { name: string }) => p.name).sort()).toEqual(['螺丝', '螺母'].sort());
    const twice = await api.post('/fixtureKit/submit', { id, parts: [{ name: '螺丝' }, { name: '螺丝' }] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().msg).toContain('第2个零件');
    const page = await api.get('/fixtureKit/page?current=1&size=10&name=新');
    expect(page.json().data.records[0]).toMatchObject({ id, colourName: '绿色' });
    const exported = await api.get('/fixtureKit/excel/export');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(exported.rawPayload as never);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['套件', '零件清单']);
    expect((await api.post(\`/fixtureKit/remove?ids=\${id}\`)).statusCode).toBe(200);
    const parts = await api.get(\`/fixturePart/page?current=1&size=10&kitId=\${id}\`);
    expect(parts.json().data.total).toBe(0);
    await s.close();
  }, 120_000);
});
`;

describe.skipIf(dbKind !== 'pglite')('the recipe "How to add an area"', () => {
  let before = new Map<string, string>();

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'smart-area-'));
    for (const f of repoFiles()) cpSync(join(ROOT, f), join(scratch, f), { force: true });
    linkNodeModules();
    before = manifest(scratch);
    // the recipe: the area's own folders, one line per end
    write('packages/contracts/src/resource/fixture.ts', CONTRACTS);
    listArea(
      'packages/contracts/src/resource/areas.ts',
      "import { FIXTURE_AREA } from './fixture';",
      'FIXTURE_AREA',
    );
    write('apps/server/src/modules/fixture/area.ts', SERVER_AREA);
    write('apps/server/src/modules/fixture/seed.ts', SERVER_SEED);
    listArea(
      'apps/server/src/modules/areas.ts',
      "import { fixtureArea } from './fixture/area';",
      'fixtureArea',
    );
    write('apps/web/src/features/fixture/pages.ts', WEB_PAGES);
    listArea(
      'apps/web/src/features/areas.ts',
      "import { fixturePages } from './fixture/pages';",
      'fixturePages',
    );
    // and the migration drizzle-kit writes
    const gen = run('npx', ['drizzle-kit', 'generate', '--name', 'fixture'], join(scratch, 'apps/server'));
    if (!gen.ok) throw new Error(gen.out);
  }, 5 * MINUTES);

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('touches only the files the recipe names, and the migration makes the three tables', () => {
    const after = manifest(scratch);
    const changed = [...after].filter(([k, v]) => before.get(k) !== v).map(([k]) => k);
    const migration = changed.filter((f) => f.startsWith('apps/server/drizzle/'));
    expect(changed.filter((f) => !migration.includes(f)).sort()).toEqual([
      'apps/server/src/modules/areas.ts',
      'apps/server/src/modules/fixture/area.ts',
      'apps/server/src/modules/fixture/seed.ts',
      'apps/web/src/features/areas.ts',
      'apps/web/src/features/fixture/pages.ts',
      'packages/contracts/src/resource/areas.ts',
      'packages/contracts/src/resource/fixture.ts',
    ]);
    const sql = migration
      .filter((f) => f.endsWith('.sql'))
      .map((f) => readFileSync(join(scratch, f), 'utf8'));
    expect(sql).toHaveLength(1);
    for (const table of ['fixture_kit', 'fixture_part', 'fixture_shelf'])
      expect(sql[0]).toContain(`CREATE TABLE "${table}"`);
  });

  it(
    'type-checks on every end',
    () => {
      const tsc = run('npx', ['tsc', '-b']);
      expect(tsc.ok, tsc.out).toBe(true);
    },
    5 * MINUTES,
  );

  it(
    'has a list page for each screen, bundled icons and declared dictionaries (the web and contracts tests)',
    () => {
      const unit = run('npx', [
        'vitest',
        'run',
        '--project',
        'unit',
        'apps/web/src/features/registry.test.ts',
        'apps/web/src/shell/layout/icons.test.ts',
        'packages/contracts/src/resource/dicts.test.ts',
      ]);
      expect(unit.ok, unit.out).toBe(true);
    },
    5 * MINUTES,
  );

  it(
    'serves its menu, dictionary, routes and children, and passes the generated tests',
    () => {
      write('apps/server/test/fixture-area.test.ts', CHECK);
      const api = run('npx', [
        'vitest',
        'run',
        '--project',
        'api',
        'apps/server/test/fixture-area.test.ts',
        'apps/server/test/resources.test.ts',
        'apps/server/test/validation.test.ts',
        '-t',
        '^(fixture|the fixture area)',
      ]);
      expect(api.ok, api.out).toBe(true);
      // the generated tests did run for the new resources (isolation, permissions, whitelists), not just skip
      const passed = Number(/Tests\s+(\d+) passed/.exec(api.out)?.[1] ?? 0);
      expect(passed, api.out).toBeGreaterThanOrEqual(25);
    },
    8 * MINUTES,
  );
});
