import { type FieldDef, maskForNotice } from '@smart/contracts';
import { and, desc, eq, inArray, lt, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { requirePermission } from '../../access/permissions';
import { type RequestContext, requireCtx } from '../../auth/context';
import { type ExcelColumn, type Sheet, sendXlsx } from '../../excel';
import type { Lang } from '../../http/messages';
import type { MountedResource } from '../binding';
import { mountedResource } from '../refs';
import { cellWriter, excelColumns, header, keyFields, loadDicts, noticeMask } from './columns';
import { fileName } from './names';

const BATCH = 200;

/**
 * `<path>/excel/export`: what the list's filters select, streamed in id batches (never all rows in memory),
 * with dictionary labels, switch words and the names of referenced rows, every text cell safe from formulas.
 * `notice`: the same rows as a public notice (`<path>/excel/notice`): ID numbers, phones and personal
 * fields masked, personal texts left out (columns.ts noticeMask). A definition's children follow its rows,
 * each in a sheet of its own named by the declaration (计划步骤): the children of the rows exported.
 */
export function mountExport(app: FastifyInstance, m: MountedResource, url: string, notice = false) {
  const { def, db } = m;
  const code = def.permission;
  app.get(url, { config: { tokenInQuery: true } }, async (req, reply) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, `${code}_export`);
    const where = await m.listWhere(ctx, req.query as Record<string, string>);
    const main = await sheetOf(m, ctx, where, req.lang, notice);
    // each child's rows of the exported rows, in a sheet of its own (a notice is the rows alone)
    const more: Sheet[] = [];
    if (!notice)
      for (const decl of def.children ?? []) {
        const child = mountedResource(decl.resource.key);
        const parents = db.select({ id: m.cols.id }).from(m.table).where(where);
        const within = and(inArray(child.cols[decl.via], parents), await child.constraint(ctx)) as SQL;
        more.push({ name: decl.label[req.lang], ...(await sheetOf(child, ctx, within, req.lang, false)) });
      }
    const name =
      notice && def.excel?.notice ? { ...def, excel: { ...def.excel, fileName: def.excel.notice } } : def;
    return sendXlsx(reply, fileName(name, req), main.columns, main.batches, more, def.label[req.lang]);
  });
}

/**
 * A resource's rows within `where` as a sheet: its export columns (a notice's masked, its personal texts
 * left out) and its rows streamed in id batches (keyset: each batch below the last id of the one before,
 * never an offset), with dictionary labels, switch words and the keys of referenced rows. Each row is
 * written as an array of cells in the columns' order; what a column needs (its dictionary, its mask) is
 * looked up once for the export, not per row.
 */
async function sheetOf(
  m: MountedResource,
  ctx: RequestContext,
  where: SQL,
  lang: Lang,
  notice: boolean,
): Promise<Omit<Sheet, 'name'>> {
  const { def, db, cols } = m;
  const all = excelColumns(def).map((c) => ({ ...c, mask: notice ? noticeMask(c) : undefined }));
  const cs = all.filter((c) => c.mask !== 'omit');
  const dicts = await loadDicts(db, def, lang);
  const keyed = cs.filter((c) => c.refKey);
  /** each column's cell of an answered row */
  const cells = cs.map((c) => {
    const mask = c.mask && c.mask !== 'omit' ? c.mask : undefined;
    const cell = cellWriter(c, dicts, lang);
    if (!mask) return cell;
    return (r: Record<string, unknown>) => {
      const v = cell(r);
      return v !== null && v !== '' ? maskForNotice(mask, String(v)) : v;
    };
  });
  async function* batches() {
    let last: string | undefined;
    for (;;) {
      const out = await m.readRows(
        ctx,
        last ? (and(where, lt(cols.id, last)) as SQL) : where,
        [desc(cols.id)],
        BATCH,
        lang,
      );
      if (!out.length) return;
      last = out[out.length - 1].id as string;
      for (const c of keyed) {
        const [keyName] = keyFields(mountedResource(c.field.ref!).def);
        const ids = [...new Set(out.map((r) => r[c.field.name]).filter(Boolean) as string[])];
        const keys = await keysOf(ctx, c.field, keyName, ids);
        for (const r of out) r[c.key] = keys.get(String(r[c.field.name])) ?? null;
      }
      const rows = new Array<unknown[]>(out.length);
      for (let i = 0; i < out.length; i++) {
        const r = out[i];
        const row = new Array<unknown>(cells.length);
        for (let j = 0; j < cells.length; j++) row[j] = cells[j](r);
        rows[i] = row;
      }
      yield rows;
      if (out.length < BATCH) return;
    }
  }
  const columns: ExcelColumn[] = cs.map((c) => ({
    key: c.key,
    header: header(c, lang),
    width: c.field.type === 'textarea' ? 40 : c.refKey || c.field.type === 'idcard' ? 22 : 16,
  }));
  return { columns, batches: batches() };
}

/** the keys (excel.key) of referenced rows by id, as an import reads them back */
async function keysOf(ctx: RequestContext, f: FieldDef, keyName: string, ids: string[]) {
  const t = mountedResource(f.ref!);
  const out = new Map<string, string>();
  if (!ids.length) return out;
  const where: SQL[] = [inArray(t.cols.id, ids)];
  if (t.def.tenant) where.push(eq(t.cols.tenantId, ctx.tenantId));
  const rows = await t.db
    .select({ id: t.cols.id, key: t.cols[keyName] })
    .from(t.table)
    .where(and(...where));
  for (const r of rows) if (r.key) out.set(String(r.id), String(r.key));
  return out;
}
