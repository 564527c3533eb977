import { createHash } from 'node:crypto';
import type { FieldDef, ResourceDef, Text2 } from '@smart/contracts';
import { SYSTEM_DICT } from '@smart/contracts';
import type { Row } from '../../platform/crud/binding';
import { tableOf } from '../../platform/crud/model';

/**
 * 代码生成: a code row, its model and the model's prototypes made into this product's own code — a pure,
 * deterministic function of its input (no clock, no random, rows in their `sort` order):
 * - `packages/contracts/src/resource/<model>.ts`: the definition (the single source: fields, list, form,
 *   search, dictionary, labels in zh and en) and its `defineArea`, from which the menu, its buttons and the
 *   dictionary sync follow as they do for every area;
 * - `apps/server/drizzle/codegen/<model>.sql`: the derived table's DDL as drizzle-kit writes it (the
 *   repository's own migration is still `npm run db:generate` once the area is listed);
 * - `apps/server/src/modules/<model>/area.ts` and `apps/web/src/features/<model>/pages.ts`: the area's
 *   entries on each end (one line in each end's list of areas makes it live);
 * - `apps/server/test/<model>.generated.test.ts`: the resource through the engine (its table made from the
 *   generated migration, mounted beside the product's resources).
 * Every file begins with a header holding the sha256 of the rest of the file, so a regeneration can tell an
 * untouched file (overwritten) from a hand-edited one (reported, kept): `compareWithCurrent`.
 */

export interface GenFile {
  path: string;
  content: string;
}

export interface CodegenInput {
  code: Row;
  model: Row;
  prototypes: Row[];
  /** master-detail: the detail model and its prototypes */
  sub?: { model: Row; prototypes: Row[] };
}

const HEADER = /^(?:\/\/|--) @generated sha256:([0-9a-f]{64})\n/;

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A body with its header: `// @generated sha256:<hash of body>` (`--` for SQL). */
export function withHeader(path: string, body: string): string {
  const mark = path.endsWith('.sql') ? '--' : '//';
  return `${mark} @generated sha256:${sha256(body)}\n${body}`;
}

/** What a file in the target tree is: as generated now, an untouched older generation, edited by hand, or no generation at all. */
export type FileState = 'new' | 'same' | 'update' | 'edited' | 'foreign';

export function stateOf(generated: string, current: string | undefined): FileState {
  if (current === undefined) return 'new';
  if (current === generated) return 'same';
  const m = HEADER.exec(current);
  if (!m) return 'foreign';
  return sha256(current.slice(m[0].length)) === m[1] ? 'update' : 'edited';
}

/** Each generated file against the target tree's (path → content): overwrite only what nobody edited. */
export function compareWithCurrent(files: GenFile[], current: Record<string, string> = {}) {
  return files.map((f) => {
    const state = stateOf(f.content, Object.hasOwn(current, f.path) ? current[f.path] : undefined);
    return { ...f, state, write: state === 'new' || state === 'update' };
  });
}

// ——— the definitions ———

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const constName = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
/** paramName → Param name */
const words = (prop: string) => upperFirst(prop.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase());

const SYSTEM_DICT_CODES = new Set(Object.keys(SYSTEM_DICT));

/** the length of `varchar(n)` / `character varying(n)`, else the default */
function lengthOf(jdbcType: string, fallback: number): number {
  const m = /\((\d+)\)/.exec(jdbcType);
  const n = m ? Number(m[1]) : fallback;
  return Math.min(Math.max(n, 1), 4000);
}

/** A prototype's field: kind from the property type and component, rules and search from its settings. */
export function fieldOf(p: Row): FieldDef | null {
  const list = Number(p.isList) === 1;
  const form = Number(p.isForm) === 1;
  if (!list && !form) return null;
  const name = String(p.propertyName);
  const label: Text2 = { zh: String(p.jdbcComment || words(name)).slice(0, 32), en: words(name) };
  const prop = String(p.propertyType);
  const comp = String(p.componentType ?? 'input');
  const jdbc = String(p.jdbcType ?? '').toLowerCase();
  const f: FieldDef = { name, label, type: 'text' };
  const dictCode = p.dictCode ? String(p.dictCode) : '';
  if (dictCode && SYSTEM_DICT_CODES.has(dictCode) && ['select', 'radio', 'tree'].includes(comp)) {
    f.type = 'dict';
    f.dict = SYSTEM_DICT[dictCode as keyof typeof SYSTEM_DICT];
  } else if (prop === 'Boolean' || comp === 'switch') {
    f.type = 'switch';
    f.default = 0;
  } else if (prop === 'Date' || comp === 'date') {
    f.type = /^date$/.test(jdbc) ? 'date' : 'datetime';
  } else if (prop === 'Integer') {
    f.type = 'int';
  } else if (prop === 'BigDecimal') {
    f.type = 'decimal';
  } else if (comp === 'editor') {
    f.type = 'richText';
    f.max = 20000;
  } else if (comp === 'textarea' || /^(text|mediumtext|longtext)/.test(jdbc)) {
    f.type = 'textarea';
    f.max = lengthOf(jdbc, 2000);
  } else {
    f.max = prop === 'Long' ? 20 : lengthOf(jdbc, 255);
  }
  if (Number(p.isRequired) === 1) f.required = true;
  if (!list) f.list = false;
  if (!form) f.form = false;
  if (Number(p.isQuery) === 1)
    f.search = /^like/.test(String(p.queryType)) || f.type === 'textarea' ? 'like' : 'equal';
  if (Number(p.isRow) === 1) f.span = 24;
  return f;
}

const ordered = (rows: Row[]) =>
  [...rows].sort(
    (a, b) =>
      Number(a.sort ?? 0) - Number(b.sort ?? 0) || String(a.jdbcName).localeCompare(String(b.jdbcName)),
  );

interface Plan {
  name: string; // file and resource key: the model's code
  areaConst: string;
  service: string;
  prefix: string;
  label: Text2;
  master: ResourceDef;
  detail?: { def: ResourceDef; via: string };
}

function resourceOf(
  code: Row,
  model: Row,
  prototypes: Row[],
  label: Text2,
  permission: string,
  extra: Partial<ResourceDef>,
): ResourceDef {
  const key = String(model.modelCode);
  const fields = ordered(prototypes)
    .map(fieldOf)
    .filter((f): f is FieldDef => !!f);
  return {
    key,
    table: String(model.modelTable),
    icon: 'AppstoreOutlined',
    label,
    service: String(code.serviceName),
    path: key,
    route: `/${code.routePrefix}/${key}`,
    permission,
    tenant: true,
    listPath: 'page',
    fields,
    ...extra,
  };
}

export function planOf(input: CodegenInput): Plan {
  const { code, model } = input;
  const name = String(model.modelCode);
  const prefix = String(code.routePrefix);
  const label: Text2 = { zh: String(code.codeName), en: String(code.codeNameEn) };
  const permission = `${prefix}_${name}`;
  const template = String(code.templateType);
  const extra: Partial<ResourceDef> = {};
  let detail: Plan['detail'];
  if (template === 'tree') {
    // a tree's rows are placed by parentId (0: a root), an id of the same resource: its own column's
    // prototype, if any, gives way to the field the engine's tree expects
    extra.tree = true;
    const fields = resourceOf(code, model, input.prototypes, label, permission, {}).fields;
    extra.fields = [
      {
        name: 'parentId',
        label: { zh: '上级', en: 'Parent' },
        type: 'text',
        max: 20,
        pattern: '^[0-9]{1,19}$',
        default: '0',
        example: '0',
        list: false,
      },
      ...fields.filter((f) => f.name !== 'parentId'),
    ];
  }
  if (template === 'sub' && input.sub) {
    const via = String(code.subForeignKey);
    const subLabel: Text2 = {
      zh: String(input.sub.model.modelName),
      en: words(String(input.sub.model.modelCode)),
    };
    const def = resourceOf(code, input.sub.model, input.sub.prototypes, subLabel, permission, {});
    // the detail's key names the master row: a reference, filled by the engine, never a column of the list
    const others = def.fields.filter((f) => f.name !== via);
    def.fields = [
      { name: via, label: label, type: 'ref', ref: name, required: true, list: false, form: false },
      ...others,
    ];
    detail = { def, via };
    extra.children = [
      {
        name: 'details',
        resource: def,
        via,
        label: subLabel,
        row: { zh: `第{n}行${subLabel.zh}`, en: `${subLabel.en} {n}` },
        add: { zh: `添加${subLabel.zh}`, en: `Add ${subLabel.en}` },
      },
    ];
  }
  const master = resourceOf(code, model, input.prototypes, label, permission, extra);
  if (extra.fields) master.fields = extra.fields;
  // its picker (what a detail's reference and other resources' pickers show): the first text field
  const named = master.fields.find((f) => f.type === 'text' && f.name !== 'parentId');
  if (named) master.select = { label: named.name, search: [named.name] };
  return {
    name,
    areaConst: `${constName(name)}_AREA`,
    service: String(code.serviceName),
    prefix,
    label,
    master,
    detail,
  };
}

// ——— writing them as this repository's files ———

const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
const L = (t: Text2) => `L(${q(t.zh)}, ${q(t.en)})`;

function value(v: unknown): string {
  if (typeof v === 'string') return q(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(value).join(', ')}]`;
  return JSON.stringify(v);
}

/** A field as the repository writes it: the shorthand of its kind where there is one, with what differs. */
function fieldText(f: FieldDef, dictHandles: Map<string, string>): string {
  const { name, label, type, max, dict: dictCode, ...rest } = f;
  const opts = (o: Record<string, unknown>) => {
    const keys = Object.keys(o).filter((k) => o[k] !== undefined);
    if (!keys.length) return '';
    return `, { ${keys.map((k) => `${k}: ${value(o[k])}`).join(', ')} }`;
  };
  if (type === 'text' && max !== undefined) return `text(${q(name)}, ${L(label)}, ${max}${opts(rest)})`;
  if (type === 'date') return `date(${q(name)}, ${L(label)}${opts(rest)})`;
  if (type === 'switch') {
    const { default: d, ...o } = rest;
    return `flag(${q(name)}, ${L(label)}${opts(d === 0 ? o : rest)})`;
  }
  if (type === 'dict' && dictCode)
    return `dict(${q(name)}, ${L(label)}, ${dictHandles.get(dictCode) ?? 'SYSTEM_DICT.sex'}${opts(rest)})`;
  const all: Record<string, unknown> = { type, ...(max !== undefined ? { max } : {}), ...rest };
  const more = Object.keys(all)
    .filter((k) => all[k] !== undefined)
    .map((k) => `${k}: ${value(all[k])}`)
    .join(', ');
  return `{ name: ${q(name)}, label: ${L(label)}, ${more} }`;
}

function contractsFile(plan: Plan): string {
  const { master, detail } = plan;
  const defs = [...(detail ? [detail.def] : []), master];
  const fields = defs.flatMap((d) => d.fields);
  const handles = new Map<string, string>();
  for (const f of fields)
    if (f.type === 'dict' && f.dict) handles.set(f.dict, `SYSTEM_DICT.${String(f.dict)}`);
  const shorthands = ['date', 'dict', 'flag', 'text'].filter((s) =>
    fields.some((f) =>
      s === 'text'
        ? f.type === 'text' && f.max !== undefined
        : s === 'flag'
          ? f.type === 'switch'
          : f.type === s && (s !== 'dict' || f.dict),
    ),
  );
  const lines: string[] = [];
  if (handles.size) lines.push("import { SYSTEM_DICT } from './dicts';");
  if (shorthands.length) lines.push(`import { ${shorthands.join(', ')} } from './fields';`);
  lines.push("import { areaResource, defineArea, L } from './types';", '');
  lines.push(
    `/** ${plan.label.zh} (${plan.label.en}): generated by 代码生成 from model ${plan.name}. */`,
    '',
  );
  lines.push(`const resource = areaResource(${q(plan.service)}, ${q(plan.prefix)});`, '');
  const resourceText = (d: ResourceDef, extra: string[]) => {
    const head = `export const ${d.key}Resource = resource(\n  ${q(d.key)},\n  ${q(d.table ?? d.key)},\n  ${q(d.icon ?? 'AppstoreOutlined')},\n  ${L(d.label)},\n  ${q(d.key)},\n  ${q(d.permission)},\n  [\n${d.fields.map((f) => `    ${fieldText(f, handles)},\n`).join('')}  ],`;
    return extra.length ? `${head}\n  { ${extra.join(', ')} },\n);\n` : `${head}\n);\n`;
  };
  if (detail) lines.push(resourceText(detail.def, []));
  const extra: string[] = [];
  if (master.tree) extra.push('tree: true');
  if (master.select)
    extra.push(
      `select: { label: ${q(master.select.label)}, search: [${(master.select.search ?? []).map(q).join(', ')}] }`,
    );
  if (detail && master.children?.[0]) {
    const c = master.children[0];
    extra.push(
      `children: [\n    {\n      name: ${q(c.name)},\n      resource: ${detail.def.key}Resource,\n      via: ${q(c.via)},\n      label: ${L(c.label)},\n      row: ${L(c.row)},\n      add: ${L(c.add)},\n    },\n  ]`,
    );
  }
  lines.push(resourceText(master, extra));
  lines.push(
    `export const ${plan.areaConst} = defineArea({\n  code: ${q(plan.prefix)},\n  label: ${L(plan.label)},\n  icon: 'AppstoreOutlined',\n  resources: [${master.key}Resource],\n});\n`,
  );
  return lines.join('\n');
}

function serverAreaFile(plan: Plan): string {
  return `import { ${plan.areaConst} } from '@smart/contracts/${plan.name}';
import { serverArea } from '../../platform/area';

/** ${plan.label.zh} on the server: the engine serves its definition; hooks go here. */
export const ${plan.name}Area = serverArea(${plan.areaConst}, {});
`;
}

function webPagesFile(plan: Plan): string {
  return `import { areaPages } from '../../platform/pages';

/** ${plan.label.zh} on the web: the generic list page of its definition. */
export const ${plan.name}Pages = areaPages('${plan.prefix}', () =>
  import('@smart/contracts/${plan.name}').then((m) => m.${plan.areaConst}),
);
`;
}

function testFile(plan: Plan): string {
  const { master, detail } = plan;
  const resources = [master, ...(detail ? [detail.def] : [])];
  const imports = resources.map((d) => `${d.key}Resource`).join(', ');
  const child = detail ? `, ${master.children?.[0].name}: [sampleRecord(${detail.def.key}Resource, 1)]` : '';
  return `import { readFileSync } from 'node:fs';
import { ${imports} } from '@smart/contracts/${plan.name}';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableOf } from '../src/platform/crud/model';
import { schema } from '../src/platform/db';
import { SEED } from '../src/seed/system';
import { clearCaches, listedRows, sampleRecord } from './fixtures';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * ${plan.label.zh}: the generated definition through the engine — its tables made by the generated migration
 * (where the database has none yet), mounted beside the product's resources, its menu codes held by the
 * administrator; add, list, detail, refuse, remove.
 */

let s: TestServer;
let token = '';
const base = '/api/${master.service}/${master.path}';
const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  s.app.inject({ method, url, headers: auth(token), payload });

beforeAll(async () => {
  s = await startTestServer({}, {
    extraResources: [${resources.map((d) => `{ def: ${d.key}Resource, table: tableOf(${d.key}Resource) }`).join(', ')}],
  });
  const db = s.database.db;
  const ddl = readFileSync(new URL('../drizzle/codegen/${plan.name}.sql', import.meta.url), 'utf8');
  // what the database does not have yet (a table of the product's own is left as it is)
  for (const statement of ddl.split('--> statement-breakpoint')) {
    const text = statement
      .replace(/^--.*$/gm, '')
      .trim()
      .replace(/^CREATE (TABLE|INDEX|UNIQUE INDEX) /, 'CREATE $1 IF NOT EXISTS ');
    if (text) await db.execute(sql.raw(text));
  }
  const codes = ['', '_view', '_add', '_edit', '_delete'].map((x) => \`${master.permission}\${x}\`);
  const menus = await db
    .insert(schema.menu)
    .values(codes.map((code, i) => ({ code, name: code, category: i === 0 ? 1 : 2 })))
    .returning({ id: schema.menu.id });
  await db.insert(schema.roleMenu).values(menus.map((m) => ({ roleId: SEED.adminRoleId, menuId: m.id })));
  clearCaches();
  token = (await signIn(s)).access_token;
});
afterAll(async () => {
  await s?.close();
});

describe('${plan.label.en} (${master.key})', () => {
  it('adds, lists, reads and removes a row', async () => {
    const made = await call('POST', \`\${base}/submit\`, { ...sampleRecord(${master.key}Resource, 1)${child} });
    expect(made.statusCode, made.body).toBe(200);
    const id = String(made.json().data.id);
    const listed = await call('GET', \`\${base}/page?current=1&size=100\`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listedRows(listed.json().data).map((r) => r.id)).toContain(id);
    const detail = await call('GET', \`\${base}/detail?id=\${id}\`);
    expect(detail.statusCode, detail.body).toBe(200);
    const removed = await call('POST', \`\${base}/remove?ids=\${id}\`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await call('GET', \`\${base}/detail?id=\${id}\`)).statusCode).toBe(404);
  });
  it('refuses what its rules refuse, and a caller without a token', async () => {
    const required = ${master.key}Resource.fields.filter((f) => f.required && f.form !== false);
    if (required.length) {
      const refused = await call('POST', \`\${base}/submit\`, {});
      expect(refused.statusCode, refused.body).toBe(400);
    }
    const anonymous = await s.app.inject({ method: 'GET', url: \`\${base}/page\` });
    expect(anonymous.statusCode).toBe(401);
  });
});
`;
}

/** The derived tables' DDL as drizzle-kit writes it (the tool the repository's migrations come from). */
async function migrationOf(plan: Plan): Promise<string> {
  const { generateDrizzleJson, generateMigration } = await import('drizzle-kit/api');
  const tables: Record<string, unknown> = { [plan.master.key]: tableOf(plan.master) };
  if (plan.detail) tables[plan.detail.def.key] = tableOf(plan.detail.def);
  const statements = await generateMigration(generateDrizzleJson({}), generateDrizzleJson(tables));
  return `${statements.join('\n--> statement-breakpoint\n')}\n`;
}

/** Every file of a code row, in a fixed order, each with its header. */
export async function generateCode(input: CodegenInput): Promise<GenFile[]> {
  const plan = planOf(input);
  const bodies: GenFile[] = [
    { path: `packages/contracts/src/resource/${plan.name}.ts`, content: contractsFile(plan) },
    { path: `apps/server/drizzle/codegen/${plan.name}.sql`, content: await migrationOf(plan) },
    { path: `apps/server/src/modules/${plan.name}/area.ts`, content: serverAreaFile(plan) },
    { path: `apps/web/src/features/${plan.name}/pages.ts`, content: webPagesFile(plan) },
    { path: `apps/server/test/${plan.name}.generated.test.ts`, content: testFile(plan) },
  ];
  return bodies.map((f) => ({ path: f.path, content: withHeader(f.path, f.content) }));
}

/** The definitions a code row makes (what the generated contracts file declares). */
export function definitionsOf(input: CodegenInput): ResourceDef[] {
  const plan = planOf(input);
  return [plan.master, ...(plan.detail ? [plan.detail.def] : [])];
}

export { upperFirst };
