import { inflateSync } from 'node:zlib';
import { DEVELOP_DEMO } from '@smart/contracts';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltReport } from '../src/modules/develop/report';
import { reportPdf } from '../src/modules/develop/report-files';
import { schema } from '../src/platform/db';
import { TextError } from '../src/platform/http/errors';
import { menuId } from '../src/seed/menus';
import { SEED } from '../src/seed/system';
import { areaServer, clearCaches, grantCodes, makeRole, makeUser } from './fixtures';
import { auth, md5Hex, type TestServer, tokenRequest } from './harness';

/**
 * 报表管理 (issue 36): a report over notices read through the notices' own constraint — 23 rows at 10 a page
 * are 3 pages in the preview, the PDF (parsed here: its pages, and each page's text through the font's
 * ToUnicode map) and the Excel file (row breaks, print titles, orientation); a user whose data scope is
 * their own department sees that department's rows only, in the preview and in both files; another
 * tenant's report is not found, a user without the button is refused, and bad designs are 400s.
 */

const BASE = '/api/dfem-report/report/rest';
const DEPT = { tech: '1123598813738675202', ops: '1123598813738675203' };
const MARK = '报表测试';
const FONT = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
/** of the 23 notices, the ones written in 技术部 (the rest in 运营部) */
const TECH = 9;

let s: TestServer;
let token: string;
let other: string;
let clerk: string;
let viewer: string;
let blind: string;
let clerkRole: string;
let reportId = '';

const call = (method: 'GET' | 'POST', url: string, tk = token, payload?: object) =>
  s.app.inject({ method, url: `${BASE}${url}`, headers: auth(tk), payload });

async function tokenOf(account: string, roleIds: string[], deptId: string) {
  await makeUser(s.database.db, { account, roleIds, deptId });
  const res = await tokenRequest(s, { grant_type: 'password', username: account, password: md5Hex('pass') });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token as string;
}

const design = {
  name: '通知报表',
  resourceKey: 'notice',
  content: JSON.stringify({ columns: ['title', 'category', 'releaseTime'], filters: { title: MARK } }),
  rowsPerPage: 10,
  orientation: 'landscape',
  chartType: 'none',
};

beforeAll(async () => {
  ({ s, token, other } = await areaServer(['370003', '报表别村', 'report_other']));
  const db = s.database.db;
  await db.insert(schema.notice).values(
    Array.from({ length: 23 }, (_, i) => ({
      tenantId: '000000',
      title: `${MARK} ${String(i + 1).padStart(2, '0')}`,
      category: i % 2 ? '1' : '2',
      releaseTime: new Date(Date.UTC(2026, 0, 1 + i)),
      createUser: SEED.adminUserId,
      createDept: i < TECH ? DEPT.tech : DEPT.ops,
    })),
  );
  clerkRole = await makeRole(db, '000000', 'report_clerk', '报表员');
  await grantCodes(db, clerkRole, [
    'tool',
    'report',
    'report_add',
    'report_view',
    'report_preview',
    'report_export',
    'notice',
  ]);
  clerk = await tokenOf('rptclerk', [clerkRole], DEPT.tech);
  // the report's screen but neither of its buttons
  const viewerRole = await makeRole(db, '000000', 'report_viewer', '报表查看');
  await grantCodes(db, viewerRole, ['tool', 'report', 'report_view', 'notice']);
  viewer = await tokenOf('rptviewer', [viewerRole], DEPT.tech);
  // the report's buttons, not the notices' screen
  const blindRole = await makeRole(db, '000000', 'report_blind', '报表无资源');
  await grantCodes(db, blindRole, ['tool', 'report', 'report_view', 'report_preview', 'report_export']);
  blind = await tokenOf('rptblind', [blindRole], DEPT.tech);

  const created = await call('POST', '/submit', token, design);
  expect(created.statusCode, created.body).toBe(200);
  reportId = String(created.json().data.id);
}, 180_000);
afterAll(() => s?.close());

/** Sets (or clears) the clerk role's data scope on notices. */
async function scopeNotices(scopeType: number | null) {
  const db = s.database.db;
  await db.delete(schema.roleScope);
  await db.delete(schema.scopeData);
  if (scopeType !== null) {
    const [scope] = await db
      .insert(schema.scopeData)
      .values({ menuId: menuId('notice'), resourceCode: 'notice', scopeName: '本部门', scopeType })
      .returning({ id: schema.scopeData.id });
    await db.insert(schema.roleScope).values({ scopeCategory: 1, scopeId: scope.id, roleId: clerkRole });
  }
  clearCaches();
}

// ---- a small PDF reader: pages, their content streams, and text through the font's ToUnicode map ----

interface PdfObject {
  dict: string;
  stream?: Buffer;
}

function pdfObjects(pdf: Buffer): Map<number, PdfObject> {
  const text = pdf.toString('latin1');
  const out = new Map<number, PdfObject>();
  const head = /(\d+) 0 obj\s*/g;
  for (let m = head.exec(text); m; m = head.exec(text)) {
    const start = head.lastIndex;
    const end = text.indexOf('endobj', start);
    const streamAt = text.indexOf('stream', start);
    if (streamAt < 0 || streamAt > end) {
      out.set(Number(m[1]), { dict: text.slice(start, end) });
      head.lastIndex = end;
      continue;
    }
    const dict = text.slice(start, streamAt);
    let from = streamAt + 'stream'.length;
    if (text[from] === '\r') from += 1;
    if (text[from] === '\n') from += 1;
    // a stream is as long as its dictionary says: its compressed bytes may hold "endobj" by chance
    const length = /\/Length (\d+)(?!\d| \d+ R)/.exec(dict);
    const to = length
      ? from + Number(length[1])
      : text.slice(0, text.indexOf('endstream', from)).replace(/\r?\n$/, '').length;
    const bytes = Buffer.from(text.slice(from, to), 'latin1');
    out.set(Number(m[1]), { dict, stream: /\/FlateDecode/.test(dict) ? inflateSync(bytes) : bytes });
    head.lastIndex = text.indexOf('endobj', to);
  }
  return out;
}

/** glyph id (hex) → text, from every ToUnicode CMap of the file (bfchar and bfrange) */
function toUnicode(objects: Map<number, PdfObject>): Map<string, string> {
  const map = new Map<string, string>();
  const hex = (h: string) => {
    let s = '';
    for (let i = 0; i < h.length; i += 4) s += String.fromCharCode(Number.parseInt(h.slice(i, i + 4), 16));
    return s;
  };
  for (const o of objects.values()) {
    const ref = /\/ToUnicode (\d+) 0 R/.exec(o.dict);
    const cmap = ref && objects.get(Number(ref[1]))?.stream?.toString('latin1');
    if (!cmap) continue;
    for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
      for (const m of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
        map.set(m[1].toLowerCase(), hex(m[2]));
    for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
      for (const m of block[1].matchAll(
        /<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g,
      )) {
        const from = Number.parseInt(m[1], 16);
        const to = Number.parseInt(m[2], 16);
        const width = m[1].length;
        const targets = m[3].startsWith('[')
          ? [...m[3].matchAll(/<([0-9a-fA-F]+)>/g)].map((x) => x[1])
          : null;
        for (let g = from; g <= to; g++) {
          const key = g.toString(16).padStart(width, '0');
          if (targets) map.set(key, hex(targets[g - from]));
          else {
            const base = m[3].slice(1, -1);
            const code = Number.parseInt(base.slice(-4), 16) + (g - from);
            map.set(key, hex(base.slice(0, -4) + code.toString(16).padStart(4, '0')));
          }
        }
      }
  }
  return map;
}

/** Each page of a PDF: its MediaBox and the text its content shows (glyphs decoded through ToUnicode). */
function readPdf(pdf: Buffer) {
  const objects = pdfObjects(pdf);
  const glyphs = toUnicode(objects);
  const pages = [...objects.entries()]
    .filter(([, o]) => /\/Type\s*\/Page(?![a-zA-Z])/.test(o.dict))
    .sort(([a], [b]) => a - b)
    .map(([, o]) => {
      const box = /\/MediaBox\s*\[([^\]]*)\]/.exec(o.dict)?.[1].trim().split(/\s+/).map(Number) ?? [];
      const contents = /\/Contents (\d+) 0 R/.exec(o.dict);
      const ops = objects.get(Number(contents?.[1]))?.stream?.toString('latin1') ?? '';
      const shown: string[] = [];
      for (const m of ops.matchAll(/\[((?:<[0-9a-fA-F]*>|[^\]])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
        const parts = m[1] !== undefined ? [...m[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((x) => x[1]) : [m[2]];
        let s = '';
        for (const h of parts)
          for (let i = 0; i < h.length; i += 4) s += glyphs.get(h.slice(i, i + 4).toLowerCase()) ?? '?';
        shown.push(s);
      }
      return { box, text: shown.join('\n') };
    });
  return { pages, count: (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length };
}

const get = async (url: string, tk = token) => {
  const res = await s.app.inject({ method: 'GET', url: `${BASE}${url}`, headers: auth(tk) });
  return res;
};

function xlsxParts(body: Buffer) {
  const files = unzipSync(new Uint8Array(body));
  return {
    sheet: strFromU8(files['xl/worksheets/sheet1.xml']),
    book: strFromU8(files['xl/workbook.xml']),
    strings: files['xl/sharedStrings.xml'] ? strFromU8(files['xl/sharedStrings.xml']) : '',
  };
}

describe('a report of 23 rows at 10 a page', () => {
  it('previews 3 pages of 10, 10 and 3 rows under one header', async () => {
    const res = await call('POST', '/preview', token, { id: reportId });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json().data;
    expect(r.count).toBe(23);
    expect(r.pages.map((p: unknown[]) => p.length)).toEqual([10, 10, 3]);
    expect(r.columns.map((c: { label: string }) => c.label)).toEqual(['通知标题', '通知类型', '通知日期']);
    expect(r.orientation).toBe('landscape');
    // dictionary words, not keys, as the list answers them
    expect(r.pages[0][0].cells[1]).toMatch(/^(发布通知|批转通知|转发通知|指示通知|任命通知|决定通知)$/);
  });

  it('exports a PDF of 3 A4 landscape pages, each carrying the header', async () => {
    const res = await get(`/export-pdf?id=${reportId}`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = readPdf(res.rawPayload);
    expect(pdf.count).toBe(3);
    expect(pdf.pages).toHaveLength(3);
    pdf.pages.forEach((page, i) => {
      expect(page.box.map(Math.round)).toEqual([0, 0, 842, 595]);
      for (const head of ['通知报表', '通知标题', '通知类型', '通知日期'])
        expect(page.text, `page ${i + 1}`).toContain(head);
      expect(page.text).toContain(`第 ${i + 1} / 3 页`);
    });
    // the rows where the preview put them: the 10 newest on the first page, the 3 oldest on the last
    expect(pdf.pages[0].text).toContain(`${MARK} 23`);
    expect(pdf.pages[2].text).toContain(`${MARK} 01`);
    expect(pdf.pages[0].text).not.toContain(`${MARK} 01`);
  });

  it('exports an Excel file with the same pages: a break every 10 rows, the header as print titles', async () => {
    const res = await get(`/export-excel?id=${reportId}`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const { sheet, book, strings } = xlsxParts(res.rawPayload);
    expect(sheet).toMatch(/<rowBreaks count="2"[^>]*>/);
    const breaks = [...sheet.matchAll(/<brk id="(\d+)"/g)].map((m) => Number(m[1]));
    // row 1 is the header; the pages' rows are 2–11, 12–21, 22–24
    expect(breaks).toEqual([11, 21]);
    expect(sheet).toMatch(/<pageSetup[^>]*paperSize="9"/);
    expect(sheet).toMatch(/<pageSetup[^>]*orientation="landscape"/);
    expect(book).toMatch(/<definedName name="_xlnm.Print_Titles"[^>]*>[^<]*\$1:\$1<\/definedName>/);
    expect(sheet.match(/<row /g)).toHaveLength(24);
    expect(strings).toContain('通知标题');
    expect(sheet).toContain('<oddHeader>&amp;C通知报表</oddHeader>');
  });
});

describe('the reader’s data scope', () => {
  it('own department: the preview and both files hold that department’s rows only', async () => {
    await scopeNotices(3);
    try {
      const r = (await call('POST', '/preview', clerk, { id: reportId })).json().data;
      expect(r.count).toBe(TECH);
      const titles = r.pages.flat().map((l: { cells: string[] }) => l.cells[0]);
      expect(titles).toContain(`${MARK} 01`);
      expect(titles).not.toContain(`${MARK} 10`);
      const pdf = readPdf((await get(`/export-pdf?id=${reportId}`, clerk)).rawPayload);
      expect(pdf.count).toBe(1);
      expect(pdf.pages[0].text).toContain(`${MARK} 09`);
      expect(pdf.pages[0].text).not.toContain(`${MARK} 10`);
      const { sheet, strings } = xlsxParts((await get(`/export-excel?id=${reportId}`, clerk)).rawPayload);
      expect(sheet.match(/<row /g)).toHaveLength(1 + TECH);
      expect(strings).toContain(`${MARK} 09`);
      expect(strings).not.toContain(`${MARK} 10`);
      // the administrator still sees every row
      expect((await call('POST', '/preview', token, { id: reportId })).json().data.count).toBe(23);
    } finally {
      await scopeNotices(null);
    }
    expect((await call('POST', '/preview', clerk, { id: reportId })).json().data.count).toBe(23);
  });
});

describe('groups, totals and the chart', () => {
  it('groups rows, counts each group on a line of its own, totals the whole and charts the groups', async () => {
    const res = await call('POST', '/submit', token, {
      ...design,
      name: '通知分组报表',
      rowsPerPage: 5,
      orientation: 'portrait',
      chartType: 'bar',
      content: JSON.stringify({
        columns: ['title', 'category'],
        filters: { title: MARK },
        groupBy: 'category',
        totals: [{ field: 'title', op: 'count' }],
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const r = (await call('POST', '/preview', token, { id: res.json().data.id })).json().data;
    const lines = r.pages.flat();
    expect(lines.filter((l: { kind: string }) => l.kind === 'group')).toHaveLength(2);
    expect(lines).toHaveLength(25);
    expect(r.pages.map((p: unknown[]) => p.length)).toEqual([5, 5, 5, 5, 5]);
    expect(r.total.cells[0]).toContain('23 行');
    expect(r.chart.type).toBe('bar');
    expect(r.chart.values.reduce((a: number, b: number) => a + b, 0)).toBe(23);
  });
});

describe('what an attacker would try', () => {
  it('another tenant’s report: not found through detail, preview, exports and remove', async () => {
    expect((await get(`/detail?id=${reportId}`, other)).statusCode).toBe(404);
    expect((await call('POST', '/preview', other, { id: reportId })).statusCode).toBe(404);
    expect((await get(`/export-pdf?id=${reportId}`, other)).statusCode).toBe(404);
    expect((await get(`/export-excel?id=${reportId}`, other)).statusCode).toBe(404);
    expect((await call('POST', `/remove?ids=${reportId}`, other)).statusCode).toBe(404);
    expect((await get(`/detail?id=${reportId}`)).statusCode).toBe(200);
  });

  it('a user without the button is refused (403); so is one without the resource’s screen', async () => {
    expect((await call('POST', '/preview', viewer, { id: reportId })).statusCode).toBe(403);
    expect((await get(`/export-pdf?id=${reportId}`, viewer)).statusCode).toBe(403);
    expect((await get(`/export-excel?id=${reportId}`, viewer)).statusCode).toBe(403);
    expect((await get(`/detail?id=${reportId}`, viewer)).statusCode).toBe(200);
    expect((await call('POST', '/preview', blind, { id: reportId })).statusCode).toBe(403);
    expect((await get(`/export-pdf?id=${reportId}`, blind)).statusCode).toBe(403);
    // and the resources the designer offers are the reader's own
    const offered = (await get('/resources', blind)).json().data.map((r: { key: string }) => r.key);
    expect(offered).not.toContain('notice');
    expect((await get('/resources', clerk)).json().data.map((r: { key: string }) => r.key)).toContain(
      'notice',
    );
  });

  it('bad designs and bad ids are 400s, never 500s', async () => {
    const bad: [string, Record<string, unknown>, string][] = [
      ['unknown resource', { resourceKey: 'nosuchthing' }, 'resourceKey'],
      ['the reports themselves', { resourceKey: 'report' }, 'resourceKey'],
      ['regions (keyed by their code)', { resourceKey: 'region' }, 'resourceKey'],
      ['unknown column', { content: JSON.stringify({ columns: ['title', 'password'] }) }, 'content'],
      [
        'SQL as a column',
        { content: JSON.stringify({ columns: ['title; drop table blade_user'] }) },
        'content',
      ],
      ['no column', { content: JSON.stringify({ columns: [] }) }, 'content'],
      ['a column twice', { content: JSON.stringify({ columns: ['title', 'title'] }) }, 'content'],
      [
        'unknown filter',
        { content: JSON.stringify({ columns: ['title'], filters: { nope: '1' } }) },
        'content',
      ],
      [
        'a paging key',
        { content: JSON.stringify({ columns: ['title'], filters: { size: '1' } }) },
        'content',
      ],
      [
        'a bad filter value',
        { content: JSON.stringify({ columns: ['title'], filters: { releaseTime_ge: 'yesterday' } }) },
        'content',
      ],
      ['unknown group', { content: JSON.stringify({ columns: ['title'], groupBy: 'nope' }) }, 'content'],
      [
        'a sum of text',
        { content: JSON.stringify({ columns: ['title'], totals: [{ field: 'title', op: 'sum' }] }) },
        'content',
      ],
      ['an unknown key', { content: JSON.stringify({ columns: ['title'], sql: 'select 1' }) }, 'content'],
      ['not JSON', { content: '{columns' }, 'content'],
      ['a chart without a group', { chartType: 'bar' }, 'chartType'],
      ['rows per page 0', { rowsPerPage: 0 }, 'rowsPerPage'],
      ['rows per page huge', { rowsPerPage: 1_000_000 }, 'rowsPerPage'],
      ['rows per page not a number', { rowsPerPage: 'many' }, 'rowsPerPage'],
      ['an unknown orientation', { orientation: 'sideways' }, 'orientation'],
    ];
    for (const [what, patch, field] of bad) {
      const res = await call('POST', '/submit', clerk, { ...design, name: `坏报表 ${what}`, ...patch });
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(res.json().data?.field, what).toBe(field);
    }
    for (const url of [
      '/export-pdf?id=abc',
      '/export-pdf',
      '/export-excel?id=1;drop',
      `/export-pdf?id=${reportId}&x=1`,
    ])
      expect((await get(url)).statusCode, url).toBe(400);
    expect((await call('POST', '/preview', token, { id: 'abc' })).statusCode).toBe(400);
    expect((await call('POST', '/preview', token, {})).statusCode).toBe(400);
    expect((await call('POST', '/preview', token, { id: '9999999999' })).statusCode).toBe(404);
  });
});

describe('the family’s calls and the demo', () => {
  it('list and remove answer in the family’s formats; the seeded reports preview', async () => {
    const list = await get('/list?current=1&size=10');
    expect(list.statusCode).toBe(200);
    const records = list.json().data.records as { id: string; name: string }[];
    expect(records.map((r) => r.name)).toEqual(
      expect.arrayContaining(['村民花名册', '通知公告一览', '通知报表']),
    );
    for (const id of [DEVELOP_DEMO.villagerReportId, DEVELOP_DEMO.noticeReportId]) {
      const r = await call('POST', '/preview', token, { id });
      expect(r.statusCode, r.body).toBe(200);
    }
    const made = await call('POST', '/submit', token, { ...design, name: '将删除的报表' });
    const removed = await call('POST', `/remove?ids=${made.json().data.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ code: 200, success: true });
  });

  it('a missing font is a clear 503 naming the setting', async () => {
    const built: BuiltReport = {
      title: '报表',
      resource: '通知公告',
      columns: [{ key: 'title', label: '通知标题', number: false }],
      rowsPerPage: 10,
      orientation: 'portrait',
      pages: [[{ kind: 'row', cells: ['一'] }]],
      total: null,
      count: 1,
      truncated: false,
      chart: null,
    };
    const missing = reportPdf(built, 'zh', { path: '/nowhere/font.ttc', face: 'X' }, 'now');
    await expect(missing).rejects.toBeInstanceOf(TextError);
    await expect(missing).rejects.toMatchObject({ status: 503 });
    await expect(missing).rejects.toThrow(/REPORT_FONT/);
    // the configured one draws
    const pdf = await reportPdf(built, 'zh', { path: FONT, face: 'NotoSansCJKsc-Regular' }, 'now');
    expect(readPdf(pdf).pages[0].text).toContain('通知标题');
  });
});
