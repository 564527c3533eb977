import { idCardCheckDigit, PLATFORM_DICTS } from '@smart/contracts';
import { and, eq, ne } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/platform/db';
import { fillDictEnglish as addDictEnglish } from '../src/seed/dicts';
import { grantCodes, makeRole, makeTenant, readSheet, signedInUser, uploadFile, xlsxOf } from './fixtures';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * Dictionary values in both languages: declared in code (contracts dicts.ts) and seeded with their English
 * values, answered in the caller's language (dictionaries, pickers, the overview's charts, Excel), English
 * values edited on the management screens, Chinese where no English value is given.
 */

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = (await signIn(s)).access_token;
});
afterAll(() => s?.close());

const SYS = '/api/dfem-system';
const MANAGE = '/api/dfem-hope-manage';
type Lang = 'zh' | 'en';
const headers = (lang: Lang, tk = token) => ({
  ...auth(tk),
  'accept-language': lang === 'en' ? 'en' : 'zh-CN',
});
const get = (url: string, lang: Lang = 'zh', tk = token) =>
  s.app.inject({ method: 'GET', url, headers: headers(lang, tk) });
const post = (url: string, payload: object, lang: Lang = 'zh') =>
  s.app.inject({ method: 'POST', url, headers: headers(lang), payload });

type Entry = { id: string; dictKey: string; dictValue: string; dictValueEn?: string; code: string };
const dictionary = async (code: string, lang: Lang, path = 'dict') =>
  (await get(`${SYS}/${path}/dictionary?code=${code}`, lang)).json().data as Entry[];

let seq = 0;
/** a new dictionary with entries [key, zh, en?] through the management endpoints */
async function makeDict(path: 'dict' | 'dict-biz', entries: [string, string, string?][]) {
  const code = `en_${path.replace('-', '_')}_${++seq}`;
  const parent = await post(`${SYS}/${path}/submit`, {
    code,
    dictValue: `英文测试${seq}`,
    sort: 1,
    isSealed: 0,
  });
  expect(parent.statusCode, parent.body).toBe(200);
  const children: Entry[] = [];
  for (const [i, [dictKey, dictValue, dictValueEn]] of entries.entries()) {
    const res = await post(`${SYS}/${path}/submit`, {
      parentId: parent.json().data.id,
      code,
      dictKey,
      dictValue,
      ...(dictValueEn === undefined ? {} : { dictValueEn }),
      sort: i + 1,
      isSealed: 0,
    });
    expect(res.statusCode, res.body).toBe(200);
    children.push(res.json().data);
  }
  return { code, parent: parent.json().data as Entry, children };
}

describe('dictionaries in the caller’s language', () => {
  it('sex answers Male/Female in English and 男/女 in Chinese, same keys and order', async () => {
    const en = await dictionary('sex', 'en');
    const zh = await dictionary('sex', 'zh');
    expect(en.map((e) => [e.dictKey, e.dictValue])).toEqual([
      ['1', 'Male'],
      ['2', 'Female'],
      ['3', 'Unknown'],
    ]);
    expect(zh.map((e) => [e.dictKey, e.dictValue])).toEqual([
      ['1', '男'],
      ['2', '女'],
      ['3', '未知'],
    ]);
    // the wire format of the contract, whatever the language
    expect(Object.keys(en[0]).sort()).toEqual(Object.keys(zh[0]).sort());
    expect((await dictionary('household_relation', 'en'))[0].dictValue).toBe('Head of household');
    expect((await dictionary('political_status', 'en'))[0].dictValue).toBe('Masses (non-party)');
    expect((await dictionary('task_status', 'en')).map((e) => e.dictValue)).toContain('In progress');
  });

  it('every seeded platform entry has its declared English value', async () => {
    const rows = await s.database.db
      .select({
        code: schema.dict.code,
        key: schema.dict.dictKey,
        zh: schema.dict.dictValue,
        en: schema.dict.dictValueEn,
      })
      .from(schema.dict)
      .where(ne(schema.dict.parentId, '0'));
    const seeded = new Map(rows.map((r) => [`${r.code}/${r.key}`, r]));
    for (const d of PLATFORM_DICTS)
      for (const e of d.items) {
        const r = seeded.get(`${d.code}/${e.key}`);
        expect(r, `${d.code}/${e.key}`).toMatchObject({ zh: e.zh, en: e.en });
        expect(e.en.trim()).not.toBe('');
      }
  });

  it('the picker tree names dictionaries and entries in the caller’s language', async () => {
    const en = (await get(`${SYS}/dict/tree?code=sex`, 'en')).json().data;
    expect(en[0].title).toBe('Sex');
    expect(en[0].children.map((c: { title: string }) => c.title)).toEqual(['Male', 'Female', 'Unknown']);
    const zh = (await get(`${SYS}/dict/tree?code=sex`, 'zh')).json().data;
    expect(zh[0].title).toBe('性别');
  });

  it('an entry without an English value (or an empty one) is answered in Chinese', async () => {
    const { code } = await makeDict('dict', [
      ['1', '甲'],
      ['2', '乙', ''],
      ['3', '丙', 'Third'],
    ]);
    expect((await dictionary(code, 'en')).map((e) => e.dictValue)).toEqual(['甲', '乙', 'Third']);
    expect((await dictionary(code, 'zh')).map((e) => e.dictValue)).toEqual(['甲', '乙', '丙']);
  });
});

describe('editing the English value', () => {
  it('submit sets and clears dictValueEn; management reads show both values in any language', async () => {
    const { code, parent, children } = await makeDict('dict', [['1', '一号']]);
    const [one] = children;
    expect(one.dictValueEn).toBe('');
    const edited = await post(`${SYS}/dict/submit`, { id: one.id, dictValueEn: '  Number one ' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ dictValue: '一号', dictValueEn: 'Number one' });
    expect((await dictionary(code, 'en'))[0].dictValue).toBe('Number one');
    // the screens that edit dictionaries read both columns as they are, in either language
    for (const lang of ['zh', 'en'] as const) {
      const detail = (await get(`${SYS}/dict/detail?id=${one.id}`, lang)).json().data;
      expect(detail).toMatchObject({ dictValue: '一号', dictValueEn: 'Number one' });
      const tree = (await get(`${SYS}/dict/child-list?parentId=${parent.id}`, lang)).json().data;
      expect(tree[0]).toMatchObject({ dictValue: '一号', dictValueEn: 'Number one' });
    }
    const sex = (await get(`${SYS}/dict/parent-list?code=sex`, 'en')).json().data.records[0];
    expect(sex).toMatchObject({ dictValue: '性别', dictValueEn: 'Sex' });
    // the name filter matches either language
    const byEnglish = (await get(`${SYS}/dict/parent-list?dictValue=Sex`, 'zh')).json().data.records;
    expect(byEnglish.map((r: Entry) => r.code)).toContain('sex');
    // an edit without the field keeps it; an empty value clears it (Chinese shown again)
    await post(`${SYS}/dict/submit`, { id: one.id, remark: '备注' });
    expect((await dictionary(code, 'en'))[0].dictValue).toBe('Number one');
    await post(`${SYS}/dict/submit`, { id: one.id, dictValueEn: '' });
    expect((await dictionary(code, 'en'))[0].dictValue).toBe('一号');
  });

  it('an English value over 255 characters is refused, naming the field in the caller’s language', async () => {
    const { children } = await makeDict('dict', [['1', '长']]);
    const zh = await post(`${SYS}/dict/submit`, { id: children[0].id, dictValueEn: 'x'.repeat(256) });
    expect(zh.statusCode).toBe(400);
    expect(zh.json().data).toEqual({ field: 'dictValueEn' });
    expect(zh.json().msg).toContain('英文值');
    const en = await post(`${SYS}/dict/submit`, { id: children[0].id, dictValueEn: 'x'.repeat(256) }, 'en');
    expect(en.statusCode).toBe(400);
    expect(en.json().msg).toContain('English value');
    const fits = await post(`${SYS}/dict/submit`, { id: children[0].id, dictValueEn: 'x'.repeat(255) });
    expect(fits.statusCode).toBe(200);
  });

  it('business dictionaries (dict-biz) carry and answer English values too', async () => {
    const { code } = await makeDict('dict-biz', [
      ['a', '苹果', 'Apple'],
      ['b', '梨'],
    ]);
    expect((await dictionary(code, 'en', 'dict-biz')).map((e) => e.dictValue)).toEqual(['Apple', '梨']);
    expect((await dictionary(code, 'zh', 'dict-biz')).map((e) => e.dictValue)).toEqual(['苹果', '梨']);
    const tree = (await get(`${SYS}/dict-biz/tree?code=${code}`, 'en')).json().data;
    expect(tree[0].children.map((c: { title: string }) => c.title)).toEqual(['Apple', '梨']);
  });
});

describe('older installs', () => {
  it('the dict-english step fills English values still missing, not renamed entries', async () => {
    const db = s.database.db;
    const d = schema.dict;
    await db.update(d).set({ dictValueEn: null }).where(eq(d.code, 'marital_status'));
    await db
      .update(d)
      .set({ dictValue: '未婚(改)' })
      .where(and(eq(d.code, 'marital_status'), eq(d.dictKey, '1')));
    await addDictEnglish(db);
    const rows = await db
      .select({ key: d.dictKey, parentId: d.parentId, en: d.dictValueEn })
      .from(d)
      .where(eq(d.code, 'marital_status'));
    const byKey = new Map(rows.filter((r) => r.parentId !== '0').map((r) => [r.key, r.en]));
    expect(byKey.get('1')).toBeNull();
    expect(byKey.get('2')).toBe('Married');
    expect(rows.find((r) => r.parentId === '0')?.en).toBe('Marital status');
  });
});

describe('the overview and Excel in English', () => {
  it('the overview statistics name dictionary entries in the caller’s language', async () => {
    const en = (await get(`${MANAGE}/villageAffairsOverview/statistics`, 'en')).json().data;
    const zh = (await get(`${MANAGE}/villageAffairsOverview/statistics`, 'zh')).json().data;
    const names = (xs: { name: string }[]) => xs.map((x) => x.name);
    expect(names(en.politicalStatus)).toContain('Masses (non-party)');
    expect(names(zh.politicalStatus)).toContain('群众');
    expect(names(en.villageGroups).slice(0, 6)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `Village group ${n}`));
    expect(names(en.education)).toContain('Primary school');
    // the same figures in both languages
    const values = (xs: { key: string; value: number }[]) => xs.map((x) => [x.key, x.value]);
    expect(values(en.politicalStatus)).toEqual(values(zh.politicalStatus));
    expect(values(en.villageGroups)).toEqual(values(zh.villageGroups));

    // another tenant counts only its own rows (none), still labelled
    await makeTenant(s.database.db, '300003', '英文租户');
    const role = await makeRole(s.database.db, '300003', 'en-admin');
    await grantCodes(s.database.db, role, 'all');
    const { token: other } = await signedInUser(s, 'enadmin', [role], '300003');
    const empty = (await get(`${MANAGE}/villageAffairsOverview/statistics`, 'en', other)).json().data;
    expect(empty.politicalStatus.every((x: { value: number }) => x.value === 0)).toBe(true);
    expect(names(empty.politicalStatus)[0]).toBe('Masses (non-party)');
  });

  it('the villager export in English has English dictionary cells, and imports back', async () => {
    const first = '43018119800512001';
    const idCard = first + idCardCheckDigit(first);
    const created = await post(`${MANAGE}/villager/submit`, {
      name: '英文导出',
      sex: '1',
      idCard,
      birthDate: '1980-05-12',
      householdNo: 'EN-EXP-1',
      relation: '1',
      villageGroup: '2',
      politicalStatus: '1',
    });
    expect(created.statusCode, created.body).toBe(200);

    const res = await get(`${MANAGE}/villager/excel/export?householdNo=EN-EXP-1`, 'en');
    expect(res.statusCode).toBe(200);
    const rows = await readSheet(res.rawPayload);
    const [head, row] = rows;
    expect(rows).toHaveLength(2);
    const cell = (h: string) => row[head.indexOf(h)];
    expect(cell('Sex')).toBe('Male');
    expect(cell('Relation to head')).toBe('Head of household');
    expect(cell('Village group')).toBe('Village group 2');
    expect(cell('Political status')).toBe('Masses (non-party)');

    // the English file imports back as an update, whichever language the importer reads
    for (const lang of ['en', 'zh'] as const) {
      const back = await s.app.inject({
        method: 'POST',
        url: `${MANAGE}/villager/excel/import`,
        headers: headers(lang),
        payload: form(res.rawPayload),
      });
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json().data).toEqual({ created: 0, updated: 1, total: 1 });
    }
    const [after] = (await get(`${MANAGE}/villager/page?householdNo=EN-EXP-1`)).json().data.records;
    expect(String(after.sex)).toBe('1');
    expect(after).toMatchObject({ relation: '1', villageGroup: '2', politicalStatus: '1' });

    // a value in neither language is refused, naming the field
    const bad = rows.map((r) => [...r]);
    bad[1][head.indexOf('Sex')] = 'Männlich';
    const refused = await uploadFile(
      s,
      token,
      `${MANAGE}/villager/excel/import`,
      await xlsxOf(bad[0], bad.slice(1)),
    );
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json())).toContain('sex');
  });

  it('the import template offers the English values in English', async () => {
    const res = await get(`${MANAGE}/villager/excel/template`, 'en');
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const help = wb.getWorksheet('How to fill')!;
    const rules: string[] = [];
    help.eachRow((r) => rules.push(String(r.getCell(2).value ?? '')));
    expect(rules.some((r) => r.includes('Male, Female, Unknown'))).toBe(true);
    expect(rules.some((r) => r.includes('男'))).toBe(false);
  });
});

function form(buf: Buffer) {
  const f = new FormData();
  f.append('file', new Blob([new Uint8Array(buf)]), 'file.xlsx');
  return f;
}
