import { type FieldDef, maskForNotice } from '@smart/contracts';
import { and, desc, eq, inArray, lt, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { requirePermission } from '../../access/permissions';
import { type RequestContext, requireCtx } from '../../auth/context';
import { type ExcelColumn, sendXlsx } from '../../excel';
import type { MountedResource } from '../binding';
import { mountedResource } from '../refs';
import { cellOut, excelColumns, header, keyFields, loadDicts, noticeMask } from './columns';
import { fileName } from './names';

const BATCH = 2000;

/**
 * `<path>/excel/export`: what the list's filters select, streamed in id batches (never all rows in memory),
 * with dictionary labels, switch words and the names of referenced rows, every text cell safe from formulas.
 * `notice`: the same rows as a public notice (`<path>/excel/notice`): ID numbers, phones and personal
 * fields masked, personal texts left out (columns.ts noticeMask).
 */
export function mountExport(app: FastifyInstance, m: MountedResource, url: string, notice = false) {
  const { def, db, cols, table } = m;
  const code = def.permission;
  app.get(url, { config: { tokenInQuery: true } }, async (req, reply) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, `${code}_export`);
    const where = await m.listWhere(ctx, req.query as Record<string, string>);
    const all = excelColumns(def).map((c) => ({ ...c, mask: notice ? noticeMask(c) : undefined }));
    const cs = all.filter((c) => c.mask !== 'omit');
    const dicts = await loadDicts(db, def, req.lang);
    const keyed = cs.filter((c) => c.refKey);
    async function* batches() {
      let last: string | undefined;
      for (;;) {
        const rows = await db
          .select(m.listSelection)
          .from(table)
          .where(last ? and(where, lt(cols.id, last)) : where)
          .orderBy(desc(cols.id))
          .limit(BATCH);
        if (!rows.length) return;
        const out = await m.output(ctx, rows as Record<string, unknown>[]);
        for (const c of keyed) {
          const [keyName] = keyFields(mountedResource(c.field.ref!).def);
          const ids = [...new Set(out.map((r) => r[c.field.name]).filter(Boolean) as string[])];
          const keys = await keysOf(ctx, c.field, keyName, ids);
          for (const r of out) r[c.key] = keys.get(String(r[c.field.name])) ?? null;
        }
        yield out.map((r) =>
          Object.fromEntries(
            cs.map((c) => {
              const v = cellOut(c, r, dicts, req.lang);
              return [
                c.key,
                c.mask && c.mask !== 'omit' && v !== null && v !== '' ? maskForNotice(c.mask, String(v)) : v,
              ];
            }),
          ),
        );
        last = rows[rows.length - 1].id as string;
        if (rows.length < BATCH) return;
      }
    }
    const xlsxColumns: ExcelColumn[] = cs.map((c) => ({
      key: c.key,
      header: header(c, req.lang),
      width: c.field.type === 'textarea' ? 40 : c.refKey || c.field.type === 'idcard' ? 22 : 16,
    }));
    const name =
      notice && def.excel?.notice ? { ...def, excel: { ...def.excel, fileName: def.excel.notice } } : def;
    return sendXlsx(reply, fileName(name, req), xlsxColumns, batches());
  });

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
}
