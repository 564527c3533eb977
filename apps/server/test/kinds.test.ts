import {
  deploymentDay,
  FIELD_KINDS,
  type FieldDef,
  type FieldType,
  fieldKind,
  parseRecord,
  type ResourceDef,
  SYSTEM_DICT,
  villagerResource,
} from '@smart/contracts';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { tableOf } from '../src/platform/crud/model';
import { schema } from '../src/platform/db';
import { SEED } from '../src/seed/system';
import { clearCaches, listedRows, sampleRecord, sampleValue, uploadFile } from './fixtures';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * Generated from the field-kind registry, not per resource × field: a probe resource holds one field of every
 * kind (and one of every field rule), its table derived like any other, mounted by the engine. Each kind's
 * sample is stored and answered as sent and found by its filter; each value the kind refuses is a 400 naming
 * the field with nothing written. A new kind is covered the day it is declared; a new entity adds nothing here.
 */

const KIND_NAMES = Object.keys(FIELD_KINDS) as FieldType[];
/** a kind's field in the probe: `k_<kind>` */
const kindField = (type: FieldType) => `k${type[0].toUpperCase()}${type.slice(1)}`;
/** kinds a filter serves by equality, and the text kinds a filter serves by "contains" */
const LIKE: FieldType[] = ['text', 'textarea', 'richText'];
const UNSEARCHED: FieldType[] = [
  'password',
  'ids',
  'refs',
  'dictMulti',
  'json',
  'polygon',
  'polyline',
  'files',
  'image',
];

function probeField(type: FieldType): FieldDef {
  const f: FieldDef = { name: kindField(type), label: { zh: `${type}字段`, en: `${type} field` }, type };
  if (type === 'ref' || type === 'refs') f.ref = 'villager';
  if (type === 'ids') f.tree = 'dept';
  if (type === 'dict' || type === 'dictMulti') f.dict = SYSTEM_DICT.sex;
  if (type === 'password') f.secret = true;
  if (!UNSEARCHED.includes(type)) f.search = LIKE.includes(type) ? 'like' : 'equal';
  return f;
}

/**
 * One field of every field rule: required, length, pattern, bounds, order of two days, uniqueness, no day
 * to come, required by another field's value, not above another number.
 */
const RULE_FIELDS: FieldDef[] = [
  { name: 'required', label: { zh: '必填项', en: 'Required' }, type: 'text', required: true },
  { name: 'short', label: { zh: '短文本', en: 'Short' }, type: 'text', min: 2, max: 5 },
  {
    name: 'patterned',
    label: { zh: '编码', en: 'Code' },
    type: 'text',
    pattern: '[A-Z]{2}\\d{3}',
    example: 'AB123',
  },
  { name: 'bounded', label: { zh: '评分', en: 'Score' }, type: 'int', min: 1, max: 10 },
  { name: 'startDay', label: { zh: '开始日期', en: 'Start' }, type: 'date' },
  { name: 'endDay', label: { zh: '结束日期', en: 'End' }, type: 'date', notBefore: 'startDay' },
  { name: 'uniqueCode', label: { zh: '唯一编号', en: 'Unique code' }, type: 'text', search: 'equal' },
  { name: 'pastDay', label: { zh: '发生日期', en: 'Happened on' }, type: 'date', notAfterToday: true },
  { name: 'pastTime', label: { zh: '发生时间', en: 'Happened at' }, type: 'datetime', notAfterToday: true },
  { name: 'holder', label: { zh: '持有方', en: 'Held by' }, type: 'dict', dict: SYSTEM_DICT.sex },
  {
    name: 'holderName',
    label: { zh: '持有人', en: 'Holder' },
    type: 'text',
    requiredWhen: { field: 'holder', is: ['1'] },
  },
  { name: 'received', label: { zh: '入库数量', en: 'Received' }, type: 'int', min: 0, max: 1000 },
  {
    name: 'left',
    label: { zh: '结存数量', en: 'Left' },
    type: 'int',
    min: 0,
    max: 1000,
    notAbove: { field: 'received' },
  },
];

const PROBE: ResourceDef = {
  key: 'kindProbe',
  label: { zh: '字段类型探针', en: 'Field kind probe' },
  service: 'dfem-probe',
  path: 'kindProbe',
  route: '/probe/kindProbe',
  permission: 'kindProbe',
  tenant: true,
  table: 'kind_probe',
  listPath: 'page',
  unique: ['uniqueCode'],
  fields: [...KIND_NAMES.map(probeField), ...RULE_FIELDS],
};
const probeTable = tableOf(PROBE);

let s: TestServer;
let token: string;
let villagerId: string;
let n = 0;

beforeAll(async () => {
  s = await startTestServer({}, { extraResources: [{ def: PROBE, table: probeTable }] });
  const db = s.database.db;
  // the probe's table, created the way drizzle-kit would migrate it
  await db.execute(sql.raw('DROP TABLE IF EXISTS kind_probe'));
  const statements = await generateMigration(generateDrizzleJson({}), generateDrizzleJson({ probeTable }));
  for (const statement of statements) await db.execute(sql.raw(statement));
  // its menu and buttons, held by the administrator
  const codes = ['', '_view', '_add', '_edit', '_delete'].map((x) => `kindProbe${x}`);
  const menus = await db
    .insert(schema.menu)
    .values(codes.map((code, i) => ({ code, name: code, category: i === 0 ? 1 : 2 })))
    .returning({ id: schema.menu.id });
  await db.insert(schema.roleMenu).values(menus.map((m) => ({ roleId: SEED.adminRoleId, menuId: m.id })));
  clearCaches();
  token = (await signIn(s)).access_token;
  const villager = await call(
    'POST',
    `/api/${villagerResource.service}/${villagerResource.path}/submit`,
    sampleRecord(villagerResource, 1),
  );
  expect(villager.statusCode, villager.body).toBe(200);
  villagerId = villager.json().data.id;
});
afterAll(async () => {
  await s?.database.db.execute(sql.raw('DROP TABLE IF EXISTS kind_probe'));
  await s?.close();
});

const base = '/api/dfem-probe/kindProbe';
const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  s.app.inject({ method, url, headers: auth(token), payload });
const list = async (q = '') => {
  const res = await call('GET', `${base}/page?size=200${q}`);
  expect(res.statusCode, res.body).toBe(200);
  return listedRows(res.json().data);
};

/** A valid probe record: every kind's sample (references naming a real villager), the rules satisfied. */
function record(): Record<string, unknown> {
  n += 1;
  const r: Record<string, unknown> = {};
  for (const f of PROBE.fields) r[f.name] = sampleValue(f, n);
  r[kindField('ref')] = villagerId;
  r[kindField('refs')] = villagerId;
  r.uniqueCode = `U${n}-${Date.now()}`;
  return r;
}

const submit = (payload: object) => call('POST', `${base}/submit`, payload);

/** What the engine answers for a stored sample: the kind's cleaned value, numbers compared as numbers. */
function same(type: FieldType, answered: unknown, sent: unknown) {
  const f = probeField(type);
  const parsed = parseRecord({ ...PROBE, fields: [f] }, { [f.name]: sent }, 'create');
  expect(parsed.error, `${type}: ${JSON.stringify(parsed.error)}`).toBeUndefined();
  const expected = parsed.record?.[f.name];
  if (['int', 'numeric'].includes(fieldKind(f).filter)) expect(Number(answered)).toBe(Number(expected));
  else expect(String(answered)).toBe(String(expected));
}

describe('every field kind (FIELD_KINDS)', () => {
  it.each(KIND_NAMES.filter((k) => k !== 'password'))(
    '%s: a valid value is stored and answered as sent',
    async (type) => {
      const payload = record();
      const res = await submit(payload);
      expect(res.statusCode, res.body).toBe(200);
      const detail = await call('GET', `${base}/detail?id=${res.json().data.id}`);
      expect(detail.statusCode).toBe(200);
      same(type, detail.json().data[kindField(type)], payload[kindField(type)]);
    },
  );

  it('password: a secret is taken, never answered', async () => {
    const res = await submit(record());
    expect(res.statusCode, res.body).toBe(200);
    const detail = await call('GET', `${base}/detail?id=${res.json().data.id}`);
    expect(detail.json().data).not.toHaveProperty(kindField('password'));
  });

  it.each(KIND_NAMES.filter((k) => probeField(k).search))(
    '%s: a filter by the value finds the row, and only rows holding it',
    async (type) => {
      const payload = record();
      const res = await submit(payload);
      expect(res.statusCode, res.body).toBe(200);
      const value = String(payload[kindField(type)]);
      const probe = LIKE.includes(type) ? value.slice(1, -1) : value;
      const rows = await list(`&${kindField(type)}=${encodeURIComponent(probe)}`);
      expect(rows.map((r) => r.id)).toContain(res.json().data.id);
      // and a hostile value is only ever a value: it finds nothing, or is refused as the wrong type
      const hostile = await call(
        'GET',
        `${base}/page?${kindField(type)}=${encodeURIComponent("1' OR '1'='1")}`,
      );
      if (hostile.statusCode === 200) expect(listedRows(hostile.json().data)).toHaveLength(0);
      else expect(hostile.statusCode).toBe(400);
    },
  );

  it.each(KIND_NAMES.filter((k) => k !== 'password'))('%s: the list sorts by it', async (type) => {
    for (const dir of ['ascs', 'descs']) {
      const res = await call('GET', `${base}/page?size=5&${dir}=${kindField(type)}`);
      expect(res.statusCode, `${dir} ${res.body}`).toBe(200);
    }
  });

  const refused = KIND_NAMES.flatMap((type) =>
    FIELD_KINDS[type].refuses.map(([why, value]) => [type, why, value] as const),
  );
  it.each(refused)(
    '%s refuses %s (%s): a 400 naming the field, nothing written',
    async (type, _why, value) => {
      const before = (await list()).length;
      const res = await submit({ ...record(), [kindField(type)]: value });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().data.field).toBe(kindField(type));
      expect(res.json().msg).toBeTruthy();
      expect((await list()).length).toBe(before);
    },
  );

  it('richText: what no editor makes (scripts, handlers, other sites’ images) is dropped before it is stored', async () => {
    const payload = {
      ...record(),
      [kindField('richText')]:
        '<p onclick="steal()">正文<script>alert(1)</script><img src="https://tracker.example/p.gif"><a href="javascript:alert(1)">链接</a></p>',
    };
    const res = await submit(payload);
    expect(res.statusCode, res.body).toBe(200);
    const stored = String(
      (await call('GET', `${base}/detail?id=${res.json().data.id}`)).json().data[kindField('richText')],
    );
    expect(stored).toContain('正文');
    expect(stored).not.toMatch(/script|onclick|tracker|javascript/);
  });
});

describe('every field rule', () => {
  const cases: [string, string, unknown, string][] = [
    ['required', 'missing', '', '请输入必填项'],
    ['short', 'too long', 'abcdef', '短文本长度不能超过5个字符'],
    ['short', 'too short', 'a', '短文本长度不能少于2个字符'],
    ['patterned', 'off its pattern', 'ab123', '编码格式不正确'],
    ['bounded', 'past its max', 11, '评分超出允许范围'],
    ['bounded', 'under its min', 0, '评分超出允许范围'],
  ];
  it.each(cases)('%s %s → 400 with its message, nothing written', async (field, _why, value, message) => {
    const before = (await list()).length;
    const res = await submit({ ...record(), [field]: value });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().data.field).toBe(field);
    expect(res.json().msg).toBe(message);
    expect((await list()).length).toBe(before);
  });

  it('an end day before its start day is refused naming the end, on create and on update', async () => {
    const bad = { startDay: '2026-03-01', endDay: '2026-02-01' };
    const created = await submit({ ...record(), ...bad });
    expect(created.statusCode).toBe(400);
    expect(created.json().data.field).toBe('endDay');
    expect(created.json().msg).toBe('结束日期不能早于开始日期');
    const ok = await submit(record());
    const updated = await submit({ id: ok.json().data.id, ...bad });
    expect(updated.statusCode).toBe(400);
    expect(updated.json().data.field).toBe('endDay');
  });

  it('a day to come is refused in a field that says none can be (the server’s day); today passes', async () => {
    const today = deploymentDay();
    const tomorrow = deploymentDay(Date.now() + 86_400_000);
    const ok = await submit({ ...record(), pastDay: today, pastTime: `${today} 23:59:59` });
    expect(ok.statusCode, ok.body).toBe(200);
    for (const [field, value, label] of [
      ['pastDay', tomorrow, '发生日期'],
      ['pastTime', `${tomorrow} 00:00:00`, '发生时间'],
    ]) {
      const res = await submit({ ...record(), [field]: value });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ data: { field }, msg: `${label}不能晚于今天` });
      // on update too, and nothing is written
      const updated = await submit({ id: ok.json().data.id, [field]: value });
      expect(updated.statusCode, updated.body).toBe(400);
    }
    const detail = await call('GET', `${base}/detail?id=${ok.json().data.id}`);
    expect(detail.json().data.pastDay).toBe(today);
  });

  it('a field another field’s value requires is refused empty, on create and on an update of either side', async () => {
    const bare = await submit({ ...record(), holder: '1', holderName: '' });
    expect(bare.statusCode, bare.body).toBe(400);
    expect(bare.json()).toMatchObject({ data: { field: 'holderName' }, msg: '请输入持有人' });
    // the other value does not require it
    const other = await submit({ ...record(), holder: '2', holderName: '' });
    expect(other.statusCode, other.body).toBe(200);
    // an update that sends only the side that makes it required is judged against the stored row
    const turned = await submit({ id: other.json().data.id, holder: '1' });
    expect(turned.statusCode, turned.body).toBe(400);
    expect(turned.json().data.field).toBe('holderName');
    const named = await submit({ ...record(), holder: '1', holderName: '张三' });
    expect(named.statusCode, named.body).toBe(200);
    const cleared = await submit({ id: named.json().data.id, holderName: '' });
    expect(cleared.statusCode, cleared.body).toBe(400);
  });

  it('a number above the one it may not exceed is refused naming it, also against the stored other', async () => {
    const over = await submit({ ...record(), received: 5, left: 6 });
    expect(over.statusCode, over.body).toBe(400);
    expect(over.json()).toMatchObject({ data: { field: 'left' }, msg: '结存数量不能超过入库数量' });
    const ok = await submit({ ...record(), received: 5, left: 5 });
    expect(ok.statusCode, ok.body).toBe(200);
    const lowered = await submit({ id: ok.json().data.id, received: 4 });
    expect(lowered.statusCode, lowered.body).toBe(400);
    expect(lowered.json().data.field).toBe('left');
  });

  it('a value a live row already holds in a unique field is refused naming the field', async () => {
    const first = record();
    expect((await submit(first)).statusCode).toBe(200);
    const again = await submit({ ...record(), uniqueCode: first.uniqueCode });
    expect(again.statusCode).toBe(400);
    expect(again.json().data.field).toBe('uniqueCode');
  });

  it('an unknown filter or sort column is a 400', async () => {
    for (const q of ['password_equal=x', 'ascs=password', 'descs=id;drop table blade_user', 'kPassword=x'])
      expect((await call('GET', `${base}/page?${q}`)).statusCode, q).toBe(400);
  });

  it('a client cannot set the tenant, the creator or the deleted flag through a body', async () => {
    const res = await submit({ ...record(), tenantId: '999999', createUser: '1', isDeleted: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.tenantId).toBe('000000');
    expect((await call('GET', `${base}/detail?id=${res.json().data.id}`)).statusCode).toBe(200);
  });
});

describe('files: attachments are checked by content', () => {
  const attach = (buf: Buffer, name: string) =>
    uploadFile(
      s,
      token,
      `/api/dfem-hope-manage/file/attach?resource=kindProbe&field=${kindField('files')}`,
      buf,
      name,
    );

  it('a PDF and an Excel workbook are stored and served back as downloads, under a path the kind accepts', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('a').addRow(['x']);
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    for (const [buf, name, ext] of [
      [pdf, '通知.pdf', 'pdf'],
      [xlsx, '名单.xlsx', 'xlsx'],
    ] as const) {
      const res = await attach(buf, name);
      expect(res.statusCode, res.body).toBe(200);
      const { url, originalName } = res.json().data;
      expect(url).toMatch(new RegExp(`\\.${ext}$`));
      expect(originalName).toBe(name);
      const saved = await submit({ ...record(), [kindField('files')]: url });
      expect(saved.statusCode, saved.body).toBe(200);
      const got = await s.app.inject({ method: 'GET', url });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-disposition']).toMatch(/^attachment/);
      expect(got.rawPayload.equals(buf)).toBe(true);
    }
  });

  it('a program renamed .pdf, a zip that is no Office document and an empty form are refused', async () => {
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]);
    const zip = await new Promise<Buffer>((resolve) => {
      const z = new yazl.ZipFile();
      z.addBuffer(Buffer.from('hello'), 'readme.txt');
      const parts: Buffer[] = [];
      z.outputStream.on('data', (c: Buffer) => parts.push(c)).on('end', () => resolve(Buffer.concat(parts)));
      z.end();
    });
    for (const [buf, name] of [
      [exe, 'report.pdf'],
      [zip, 'report.docx'],
    ] as const) {
      const res = await attach(buf, name);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().data.field).toBe('file');
    }
    expect(
      (await s.app.inject({ method: 'GET', url: '/api/dfem-hope-manage/file/attach/../x.pdf' })).statusCode,
    ).toBe(404);
    // and nobody signed out uploads anything
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n'))]), 'a.pdf');
    const anonymous = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-hope-manage/file/attach',
      payload: form,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
