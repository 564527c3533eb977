import {
  checkField,
  deploymentDay,
  type FieldDef,
  isDate,
  isDateTime,
  RESOURCES,
  type ResourceDef,
} from '@smart/contracts';
import { getTableColumns } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountedByKey } from '../src/platform/crud/refs';
import { dataExceptionCode } from '../src/platform/http/errors';
import { sampleRecord } from './fixtures';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * Bad input, generated from the registry: values PostgreSQL would refuse (a NUL byte, an impossible date,
 * a number or an id out of its column's range, text longer than its column), a day to come in a field that
 * declares none can be (`notAfterToday`: tomorrow in the server's day) and malformed requests (deep
 * or broken JSON, an empty upload, operators a column cannot take) are a 400 naming the field, decided
 * before any SQL — never a 500.
 */
let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = (await signIn(s)).access_token;
});
afterAll(() => s.close());

const TOO_BIG_ID = '9223372036854775808'; // 2^63
const base = (d: ResourceDef) => (d.path ? `/api/${d.service}/${d.path}` : `/api/${d.service}`);
const listUrl = (d: ResourceDef) => `${base(d)}/${d.listPath ?? 'list'}`;
const get = (url: string) => s.app.inject({ method: 'GET', url, headers: auth(token) });
const submit = (d: ResourceDef, payload: object) =>
  s.app.inject({ method: 'POST', url: `${base(d)}/submit`, headers: auth(token), payload });

/** The database column behind a field (every resource is mounted by the engine; a field kept beside the row has none). */
function columnOf(def: ResourceDef, name: string): PgColumn | undefined {
  const m = mountedByKey.get(def.key);
  return m ? (getTableColumns(m.table) as Record<string, PgColumn>)[name] : undefined;
}
const varcharLength = (c: PgColumn | undefined) =>
  c?.columnType === 'PgVarchar' ? (c as unknown as { length?: number }).length : undefined;
const isNumberColumn = (c: PgColumn | undefined, f?: FieldDef) =>
  c?.dataType === 'number' || (!!f && ['int', 'decimal', 'switch'].includes(f.type));
const isDateColumn = (c: PgColumn | undefined, f?: FieldDef) =>
  c?.columnType === 'PgTimestamp' ||
  c?.columnType === 'PgDateString' ||
  c?.columnType === 'PgDate' ||
  (!!f && (f.type === 'date' || f.type === 'datetime'));

const fieldLabel = (def: ResourceDef, name: string) =>
  def.fields.find((f) => f.name === name)?.label.zh ?? name;

/** Bad values of one field, by its type and column: [why, value]. */
function badValues(def: ResourceDef, f: FieldDef): [string, unknown][] {
  const out: [string, unknown][] = [['a NUL byte', `a\u0000b`]];
  const col = columnOf(def, f.name);
  switch (f.type) {
    case 'date':
      out.push(['Feb 30', '2024-02-30'], ['month 13', '2024-13-01'], ['year 0', '0000-01-01']);
      break;
    case 'datetime':
      out.push(
        ['month 13 at 25:61', '2024-13-01T25:61:00'],
        ['25:61 o’clock', '2024-01-01 25:61:00'],
        ['Feb 30', '2024-02-30 10:00:00'],
      );
      break;
    case 'int':
      out.push(
        ['2^31', 2 ** 31],
        ['2^31 as text', String(2 ** 31)],
        ['1e20', 1e20],
        ['-2^31-1', -(2 ** 31) - 1],
      );
      break;
    case 'decimal':
      out.push(['1e20', 1e20], ['1e20 as text', '1e20']);
      break;
    case 'ref':
      out.push(['2^63', TOO_BIG_ID], ['1e3', '1e3']);
      break;
    case 'ids':
    case 'refs':
      out.push(['an id of 2^63', `1,${TOO_BIG_ID}`], ['1e3', '1e3']);
      break;
    case 'dict':
      if (isNumberColumn(col)) out.push(['a key past 2^31', String(2 ** 31)]);
      break;
  }
  // a day to come where none can be (a birthday, a day one joined): tomorrow in the server's day (its TZ)
  if (f.notAfterToday) {
    const tomorrow = deploymentDay(Date.now() + 86_400_000);
    out.push(['tomorrow (not after today)', f.type === 'datetime' ? `${tomorrow} 00:00:01` : tomorrow]);
  }
  const len = varcharLength(col);
  if (len !== undefined && !['int', 'decimal', 'switch', 'date', 'datetime'].includes(f.type))
    out.push([`longer than its column (${len})`, 'x'.repeat(len + 1)]);
  return out;
}

describe.each(RESOURCES.map((d) => [d.key, d] as const))('%s', (_k, def) => {
  const cases = def.fields.flatMap((f) => badValues(def, f).map(([why, v]) => [f.name, why, v, f] as const));

  // a log the server writes (readOnly) takes no submit: a bad body is refused (400 where the request is
  // malformed before any route reads it, else 403), never stored
  it.runIf(def.readOnly)('a submit is refused whatever its body holds', async () => {
    for (const [name, , value] of cases) {
      const res = await submit(def, { ...sampleRecord(def, 1), [name]: value });
      expect([400, 403], res.body).toContain(res.statusCode);
    }
  });
  it.each(def.readOnly ? [] : cases)('submit %s: %s → 400 naming it', async (name, _why, value, f) => {
    const res = await submit(def, { ...sampleRecord(def, 1), [name]: value });
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(body.data?.field, res.body).toBe(name);
    // named by its label (the shared field rules) or its key (a NUL refused with the body); the spec's
    // phone messages are fixed sentences
    if (f.type !== 'mobile' && f.type !== 'phone' && !f.patternMessage)
      expect([f.label.zh, name].some((x) => body.msg.includes(x))).toBe(true);
  });

  it('an id of 2^63 is a 400 on submit, detail and remove', async () => {
    const res = await submit(def, { ...sampleRecord(def, 2), id: TOO_BIG_ID });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().msg).toContain('id');
    const detail = await get(`${base(def)}/detail?id=${TOO_BIG_ID}`);
    expect(detail.statusCode, detail.body).toBe(400);
    expect(detail.json().msg).toContain('id');
    for (const id of [TOO_BIG_ID, '1e3', '-1', '1.5']) {
      const removed = await s.app.inject({
        method: 'POST',
        url: `${base(def)}/remove?ids=${id}`,
        headers: auth(token),
      });
      expect(removed.statusCode, removed.body).toBe(400);
    }
  });

  const filters: [string, string, string][] = [['id', 'id', TOO_BIG_ID]];
  filters.push(['id', 'id_in', `1,${TOO_BIG_ID}`]);
  for (const f of def.fields.filter((x) => !x.secret)) {
    const col = columnOf(def, f.name);
    filters.push([f.name, f.name, 'a\u0000b']);
    if (isNumberColumn(col, f)) {
      filters.push([f.name, `${f.name}_like`, 'x']);
      filters.push([f.name, `${f.name}_dategt`, '2024-01-01']);
      filters.push([f.name, `${f.name}_ge`, '1e20']);
      if (col?.columnType === 'PgInteger' || f.type === 'int')
        filters.push([f.name, f.name, '1.5'], [f.name, `${f.name}_equal`, String(2 ** 31)]);
    } else if (isDateColumn(col, f)) {
      filters.push([f.name, `${f.name}_like`, 'x']);
      filters.push([f.name, f.name, '2024-02-30']);
      filters.push([f.name, `${f.name}_dategt`, '2024-13-01']);
      filters.push([f.name, `${f.name}_datelt`, '2024-01-01 25:61']);
      filters.push([f.name, `${f.name}_ge`, 'yesterday']);
    } else if (f.type === 'ref') {
      filters.push([f.name, f.name, TOO_BIG_ID], [f.name, `${f.name}_in`, `1,1e3`]);
    } else if (col?.dataType === 'string') {
      filters.push([f.name, `${f.name}_dategt`, '2024-01-01']);
    }
  }

  it.each(filters)('list filter on %s: %s=%j → 400 naming it', async (name, key, value) => {
    const res = await get(`${listUrl(def)}?${new URLSearchParams({ [key]: value })}`);
    expect(res.statusCode, res.body).toBe(400);
    // the field, or the query key that names it (an operator its column does not take)
    const { data, msg } = res.json();
    expect([name, key], res.body).toContain(data?.field ?? name);
    expect(
      [name, fieldLabel(def, name)].some((x) => msg.includes(x)),
      res.body,
    ).toBe(true);
  });

  it('sorting on a non-column is a 400 naming it', async () => {
    for (const q of ['ascs=nosuchcolumn', 'descs=nosuchcolumn', 'ascs=is_deleted', 'descs=password']) {
      const res = await get(`${listUrl(def)}?${q}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().msg, res.body).toMatch(/nosuchcolumn|is_deleted|password/);
    }
  });
});

describe('malformed requests', () => {
  const param = RESOURCES.find((r) => r.key === 'param')!;
  const post = (url: string, payload: string, type = 'application/json') =>
    s.app.inject({
      method: 'POST',
      url,
      headers: { ...auth(token), 'content-type': type },
      payload,
    });

  it.each([
    ['100 000 unclosed [', '['.repeat(100_000)],
    ['100 000 nested arrays', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['100 000 nested objects', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`],
    ['a field nested 1 000 deep', `{"paramName":${'['.repeat(1000)}${']'.repeat(1000)}}`],
  ])('%s → 400 naming the body', async (_why, payload) => {
    const res = await post(`${base(param)}/submit`, payload);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    expect(res.json()).toMatchObject({ success: false, data: { field: 'body' } });
  });

  it.each([
    ['cut off', '{"paramName":'],
    ['a trailing comma', '{"paramName":"a",}'],
    ['single quotes', "{'paramName':'a'}"],
    ['empty', ''],
  ])('malformed JSON (%s) → 400 naming the body', async (_why, payload) => {
    const res = await post(`${base(param)}/submit`, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ success: false, data: { field: 'body' } });
  });

  it('a NUL byte anywhere in a body, a query or a path is a 400 naming where', async () => {
    const cases: [Promise<{ statusCode: number; body: string; json(): { data: unknown } }>, string][] = [
      [post(`${base(param)}/submit`, '{"param\\u0000Name":"a"}'), 'paramName'],
      [post(`${base(param)}/submit`, JSON.stringify({ id: '1\u0000', paramName: 'a' })), 'id'],
      [post(`${base(param)}/submit`, JSON.stringify({ paramName: 'a', x: [{ y: 'b\u0000' }] })), 'x.0.y'],
      [get(`${base(param)}/detail?id=1%00`), 'id'],
      [get(`/api/dfem-system/dict/list?code=a%00`), 'code'],
      [get(`/api/dfem-resource/file/avatar/a%00b.png`), 'name'],
    ];
    for (const [pending, field] of cases) {
      const res = await pending;
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().data, res.body).toEqual({ field });
    }
  });

  it.each([
    ['/api/dfem-resource/file/avatar', /^file$/],
    ['/api/dfem-hope-manage/file/image?resource=villager&field=photo', /^file$/],
    ['/api/dfem-hope-manage/file/video?resource=careVideo&field=videoFile', /^file$/],
    // a form without its category is refused for that first
    ['/api/dfem-flow/manager/deploy-upload', /^(files|category)$/],
  ])('an empty multipart body to %s → 400 naming the file', async (url, field) => {
    for (const [type, payload] of [
      ['multipart/form-data; boundary=----x', ''],
      ['multipart/form-data; boundary=----x', '------x--\r\n'],
      ['multipart/form-data', ''],
      [
        'multipart/form-data; boundary=----x',
        '------x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n',
      ],
    ]) {
      const res = await post(url, payload, type);
      expect(res.statusCode, `${type} ${JSON.stringify(payload)}: ${res.body}`).toBe(400);
      expect(res.json().data?.field, res.body).toMatch(field);
    }
  });
});

describe('the safety net: a value only the database refuses', () => {
  it('finds the SQLSTATE of class 22 on the error or what it wraps', () => {
    expect(dataExceptionCode({ code: '22001' })).toBe('22001');
    expect(dataExceptionCode({ message: 'Failed query', cause: { code: '22P02' } })).toBe('22P02');
    expect(dataExceptionCode(Object.assign(new Error('x'), { cause: { cause: { code: '22021' } } }))).toBe(
      '22021',
    );
    expect(dataExceptionCode({ code: '23505' })).toBeUndefined();
    expect(dataExceptionCode({ code: 'ECONNRESET' })).toBeUndefined();
    expect(dataExceptionCode(undefined)).toBeUndefined();
  });

  it('is a 400, not a 500, and is logged', async () => {
    // a statement that fails in the database with 22P02 (invalid text representation) and 22008 (date out of range)
    for (const sql of ["select 'abc'::integer", "select '2024-02-30'::date"]) {
      const err = await s.database.db.execute(sql).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(dataExceptionCode(err), sql).toMatch(/^22/);
    }
    const user = RESOURCES.find((r) => r.key === 'user')!;
    // a dictionary key the user screen keeps in an integer column: refused by the database, answered 400
    const res = await submit(user, { ...sampleRecord(user, 3), account: 'badsex', sex: 'abc' });
    expect(res.statusCode, res.body).toBe(400);
  });
});

describe('the shared field rules (browser and server)', () => {
  it('know the calendar and the clock', () => {
    for (const ok of ['2024-02-29', '2000-02-29', '0001-01-01', '9999-12-31'])
      expect(isDate(ok), ok).toBe(true);
    for (const bad of [
      '2023-02-29',
      '1900-02-29',
      '2024-02-30',
      '2024-04-31',
      '2024-13-01',
      '2024-00-10',
      '0000-01-01',
    ])
      expect(isDate(bad), bad).toBe(false);
    expect(isDateTime('2024-02-29 23:59:59')).toBe(true);
    for (const bad of [
      '2024-01-01 24:00:00',
      '2024-01-01 25:61:00',
      '2024-01-01 10:60:00',
      '2024-01-01 10:00:60',
    ])
      expect(isDateTime(bad), bad).toBe(false);
    expect(isDateTime('2024-01-01 10:00')).toBe(false);
    expect(isDateTime('2024-01-01 10:00', true)).toBe(true);
  });

  it('bound ints, decimals and dictionary keys by their columns, and refuse NUL in any field', () => {
    const f = (type: FieldDef['type'], extra: Partial<FieldDef> = {}): FieldDef => ({
      name: 'x',
      label: { zh: '某值', en: 'Some value' },
      type,
      ...extra,
    });
    expect(checkField(f('int'), 2 ** 31 - 1)).toBeNull();
    expect(checkField(f('int'), 2 ** 31)?.en).toBe('Some value is out of range');
    expect(checkField(f('int'), -(2 ** 31) - 1)?.zh).toBe('某值超出允许范围');
    expect(checkField(f('decimal'), '999999999999.99')).toBeNull();
    expect(checkField(f('decimal'), '1e12')?.en).toBe('Some value is out of range');
    expect(checkField(f('dict'), 'abcdefghijk')?.en).toBe('Some value must be at most 10 characters');
    expect(checkField(f('dict'), '2147483648')?.en).toBe('Some value is out of range');
    for (const type of ['text', 'textarea', 'dict', 'date', 'ref', 'email', 'int'] as const)
      expect(checkField(f(type), 'a\u0000')?.en, type).toMatch(/^Some value /);
  });
});
