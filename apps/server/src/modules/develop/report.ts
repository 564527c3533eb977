import {
  type FieldDef,
  REPORT_LIMITS,
  REPORT_TOTAL_OPS,
  type ReportDesign,
  type ReportTotalOp,
  type ResourceDef,
} from '@smart/contracts';
import { and, desc, lt, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { grantedCodes } from '../../platform/access/permissions';
import type { RequestContext } from '../../platform/auth/context';
import type { MountedResource, Row } from '../../platform/crud/binding';
import { cellWriter, isNumber, loadDicts } from '../../platform/crud/excel/columns';
import { mountedByKey } from '../../platform/crud/refs';
import { FieldInputError, forbidden } from '../../platform/http/errors';
import type { Lang } from '../../platform/http/messages';

/**
 * 报表管理's core: a report's design checked against the resource it reads (declared fields only, the list's
 * own whitelisted filters), and its rows read through that resource's engine — `listWhere` (the caller's
 * constraint: tenant, live rows, data scope; the filters as the list takes them) and `readRows` (answered
 * as the list answers them: dictionary words, references' names) — then grouped, totalled and cut into
 * pages of `rowsPerPage` lines. The preview, the print, the PDF and the Excel file are all drawn from this
 * one `BuiltReport`, so they paginate alike.
 */

/** Kinds a report does not show: files, pictures, shapes, rich text, raw JSON, secrets. */
const UNSHOWN = new Set(['password', 'image', 'video', 'files', 'richText', 'polygon', 'polyline', 'json']);

/** The fields of a resource a report may show, group by or total: declared, listed by the engine, printable. */
export function reportFields(m: MountedResource): FieldDef[] {
  return m.def.fields.filter(
    (f) => !f.secret && !f.detailOnly && !UNSHOWN.has(f.type) && f.name in m.listSelection,
  );
}

/** The resources a report may read: mounted, with rows and fields to show, not the reports themselves. */
export function reportableResource(key: string): MountedResource | undefined {
  const m = key === 'report' ? undefined : mountedByKey.get(key);
  // rows are read in id batches: a resource keyed by a field of its own (regions by code) is not reported on
  if (!m || m.def.idField || !m.cols.id || !reportFields(m).length) return undefined;
  return m;
}

/** The reportable resources the caller may read (holding the resource's own screen code). */
export async function reportableFor(
  ctx: RequestContext,
  db: MountedResource['db'],
): Promise<MountedResource[]> {
  const codes = await grantedCodes(db, ctx.roleIds);
  const out: MountedResource[] = [];
  for (const key of mountedByKey.keys()) {
    const m = reportableResource(key);
    if (m && codes.has(m.def.permission)) out.push(m);
  }
  return out;
}

const PAGING = new Set(['current', 'size', 'page', 'currentPage', 'pageSize', 'ascs', 'descs']);

const Design = z
  .object({
    columns: z.array(z.string().min(1).max(64)).min(1).max(REPORT_LIMITS.columns),
    filters: z.record(z.string().min(1).max(80), z.string().max(500)).optional(),
    groupBy: z.string().max(64).optional(),
    totals: z
      .array(z.object({ field: z.string().max(64), op: z.enum(REPORT_TOTAL_OPS) }).strict())
      .max(REPORT_LIMITS.totals)
      .optional(),
  })
  .strict();

const bad = (zh: string, en: string, field = 'content') => new FieldInputError(field, { zh, en });

export interface CheckedReport {
  m: MountedResource;
  design: ReportDesign;
  fields: Map<string, FieldDef>;
}

/**
 * A report's resource and design, or a 400 naming what is wrong: an unknown resource on `resourceKey`; an unknown column, group field, total or
 * filter on `content`. The filters are the resource's list filters, checked by the engine's own whitelist.
 */
export async function checkReport(
  ctx: RequestContext,
  row: { resourceKey?: unknown; content?: unknown; chartType?: unknown },
  reading = false,
): Promise<CheckedReport> {
  const key = String(row.resourceKey ?? '');
  const m = reportableResource(key);
  // reading a report over a resource the reader has no screen of is refused: the rows are theirs to see
  // only where that screen would show them (defining one reads nothing, and the designer offers only
  // the user's own resources)
  if (reading && m && !(await grantedCodes(m.db, ctx.roleIds)).has(m.def.permission)) throw forbidden();
  if (!m)
    throw bad(
      `数据资源 ${key} 不存在或不能做报表`,
      `There is no resource ${key} to report on`,
      'resourceKey',
    );
  let raw: unknown;
  try {
    raw = typeof row.content === 'string' ? JSON.parse(row.content) : row.content;
  } catch {
    throw bad('报表设计不是 JSON', 'The design is not JSON');
  }
  const parsed = Design.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path.join('.') || 'content';
    throw bad(`报表设计无效:${at}`, `The design is invalid: ${at}`);
  }
  const design = parsed.data as ReportDesign;
  const fields = new Map(reportFields(m).map((f) => [f.name, f]));
  const known = (name: string, what: [string, string]) => {
    const f = fields.get(name);
    if (!f)
      throw bad(`${what[0]} ${name} 不是该资源的字段`, `${what[1]} ${name} is not a field of the resource`);
    return f;
  };
  for (const c of design.columns) known(c, ['列', 'The column']);
  if (new Set(design.columns).size !== design.columns.length)
    throw bad('列不能重复', 'A column is chosen twice');
  if (design.groupBy) known(design.groupBy, ['分组字段', 'The group field']);
  for (const t of design.totals ?? []) {
    const f = known(t.field, ['合计字段', 'The total field']);
    if (t.op !== 'count' && !isNumber(f))
      throw bad(`${f.label.zh}不是数字,不能${t.op}`, `${f.label.en} is not a number: no ${t.op}`);
  }
  if (row.chartType && row.chartType !== 'none' && !design.groupBy)
    throw bad('图表需要分组字段', 'A chart needs a group field', 'chartType');
  const filters = design.filters ?? {};
  if (Object.keys(filters).length > REPORT_LIMITS.filters) throw bad('筛选条件太多', 'Too many filters');
  for (const k of Object.keys(filters))
    if (PAGING.has(k)) throw bad(`筛选条件 ${k} 无效`, `The filter ${k} is not a filter`);
  try {
    await m.listWhere(ctx, filters);
  } catch (e) {
    if (e instanceof FieldInputError)
      throw bad(`筛选条件无效:${e.field}(${e.text.zh})`, `A filter is invalid: ${e.field} (${e.text.en})`);
    throw e;
  }
  return { m, design, fields };
}

export interface ReportColumn {
  key: string;
  label: string;
  number: boolean;
}

export interface ReportLine {
  /** a row of the resource, a group's subtotal, or the report's total */
  kind: 'row' | 'group' | 'total';
  cells: (string | number | null)[];
}

export interface BuiltReport {
  title: string;
  resource: string;
  columns: ReportColumn[];
  rowsPerPage: number;
  orientation: 'portrait' | 'landscape';
  /** lines of each page: at most rowsPerPage each (a group's subtotal line counts as a line) */
  pages: ReportLine[][];
  /** the report's total line, printed after the last page's lines (undefined without totals or groups) */
  total: ReportLine | null;
  /** rows read */
  count: number;
  /** more rows matched than a report reads (REPORT_LIMITS.rows) */
  truncated: boolean;
  chart: { type: string; series: string; categories: string[]; values: number[] } | null;
}

const BATCH = 500;
const OP_WORD: Record<ReportTotalOp, { zh: string; en: string }> = {
  count: { zh: '计数', en: 'count' },
  sum: { zh: '合计', en: 'sum' },
  avg: { zh: '平均', en: 'average' },
  min: { zh: '最小', en: 'min' },
  max: { zh: '最大', en: 'max' },
};

const round = (n: number) => Math.round(n * 100) / 100;

function totalOf(op: ReportTotalOp, values: unknown[]): number | null {
  if (op === 'count') return values.filter((v) => v !== null && v !== undefined && v !== '').length;
  const ns = values
    .map((v) => (v === null || v === undefined || v === '' ? NaN : Number(v)))
    .filter(Number.isFinite);
  if (!ns.length) return null;
  if (op === 'sum') return round(ns.reduce((a, b) => a + b, 0));
  if (op === 'avg') return round(ns.reduce((a, b) => a + b, 0) / ns.length);
  return op === 'min' ? Math.min(...ns) : Math.max(...ns);
}

/** The report's rows as the caller may read them, drawn into pages (see BuiltReport). */
export async function buildReport(
  ctx: RequestContext,
  lang: Lang,
  report: Row,
  checked?: CheckedReport,
): Promise<BuiltReport> {
  const { m, design, fields } = checked ?? (await checkReport(ctx, report, true));
  const rowsPerPage = Number(report.rowsPerPage);
  const where = await m.listWhere(ctx, design.filters ?? {});
  // keyset batches, newest first as the list shows them: never an offset, never more than the limit
  const rows: Row[] = [];
  let last: string | undefined;
  for (;;) {
    const out = await m.readRows(
      ctx,
      last ? (and(where, lt(m.cols.id, last)) as SQL) : where,
      [desc(m.cols.id)],
      Math.min(BATCH, REPORT_LIMITS.rows + 1 - rows.length),
      lang,
    );
    rows.push(...out);
    if (out.length < BATCH || rows.length > REPORT_LIMITS.rows) break;
    last = String(out[out.length - 1].id);
  }
  const truncated = rows.length > REPORT_LIMITS.rows;
  if (truncated) rows.length = REPORT_LIMITS.rows;

  const dicts = await loadDicts(m.db, m.def, lang);
  const writer = (f: FieldDef) => cellWriter({ key: f.name, header: f.label, field: f }, dicts, lang);
  const colFields = design.columns.map((c) => fields.get(c) as FieldDef);
  const cellsOf = colFields.map(writer);
  const asCell = (v: unknown): string | number | null =>
    v === null || v === undefined ? null : typeof v === 'number' ? v : String(v);
  const groupField = design.groupBy ? fields.get(design.groupBy) : undefined;
  const groupOf = groupField ? writer(groupField) : undefined;
  const totals = design.totals ?? [];
  const en = lang === 'en';

  /** a subtotal or total line: its label in the first cell, each total under its column (else in the label) */
  const totalLine = (kind: 'group' | 'total', label: string, of: Row[]): ReportLine => {
    const cells: (string | number | null)[] = colFields.map(() => null);
    const aside: string[] = [];
    for (const t of totals) {
      const v = totalOf(
        t.op,
        of.map((r) => r[t.field]),
      );
      const at = design.columns.indexOf(t.field);
      const f = fields.get(t.field) as FieldDef;
      if (at > 0 && cells[at] === null) cells[at] = v;
      else aside.push(`${f.label[lang]}${en ? ' ' : ''}${OP_WORD[t.op][lang]} ${v ?? '-'}`);
    }
    const count = en ? `${of.length} rows` : `${of.length} 行`;
    cells[0] = [label, count, ...aside].join(en ? ', ' : ',');
    return { kind, cells };
  };

  const lines: ReportLine[] = [];
  let chart: BuiltReport['chart'] = null;
  if (groupOf) {
    const groups = new Map<string, Row[]>();
    for (const r of rows) {
      const g = String(groupOf(r) ?? (en ? '(none)' : '(空)'));
      const list = groups.get(g);
      if (list) list.push(r);
      else groups.set(g, [r]);
    }
    const names = [...groups.keys()].sort((a, b) => a.localeCompare(b, en ? 'en' : 'zh'));
    for (const g of names) {
      const of = groups.get(g) as Row[];
      for (const r of of) lines.push({ kind: 'row', cells: cellsOf.map((c) => asCell(c(r))) });
      lines.push(totalLine('group', `${en ? 'Subtotal' : '小计'} ${g}`, of));
    }
    const type = String(report.chartType ?? 'none');
    if (type !== 'none') {
      const measure = totals.find((t) => t.op !== 'count');
      chart = {
        type,
        series: measure
          ? `${(fields.get(measure.field) as FieldDef).label[lang]} ${OP_WORD[measure.op][lang]}`
          : en
            ? 'Rows'
            : '行数',
        categories: names,
        values: names.map((g) => {
          const of = groups.get(g) as Row[];
          return measure
            ? (totalOf(
                measure.op,
                of.map((r) => r[measure.field]),
              ) ?? 0)
            : of.length;
        }),
      };
    }
  } else for (const r of rows) lines.push({ kind: 'row', cells: cellsOf.map((c) => asCell(c(r))) });

  const pages: ReportLine[][] = [];
  for (let i = 0; i < lines.length; i += rowsPerPage) pages.push(lines.slice(i, i + rowsPerPage));
  if (!pages.length) pages.push([]);
  return {
    title: String(report.name),
    resource: m.def.label[lang],
    columns: colFields.map((f) => ({ key: f.name, label: f.label[lang], number: isNumber(f) })),
    rowsPerPage,
    orientation: report.orientation === 'landscape' ? 'landscape' : 'portrait',
    pages,
    total: totals.length || groupOf ? totalLine('total', en ? 'Total' : '合计', rows) : null,
    count: rows.length,
    truncated,
    chart,
  };
}

/** What the designer offers for a resource: its label and the fields a report may use. */
export function resourceChoice(m: MountedResource, lang: Lang) {
  const def: ResourceDef = m.def;
  return {
    key: def.key,
    label: def.label[lang],
    fields: reportFields(m).map((f) => ({
      name: f.name,
      label: f.label[lang],
      type: f.type,
      number: isNumber(f),
      dict: f.dict ?? null,
      search: f.search ?? null,
    })),
  };
}
