import type { FieldDef, ResourceDef, Text2 } from '@smart/contracts';
import { checkField, parseRecord, uniqueSets, uniqueTaken } from '@smart/contracts';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { requirePermission } from '../../access/permissions';
import { type RequestContext, requireCtx } from '../../auth/context';
import { readUpload } from '../../excel';
import { ok } from '../../http/envelope';
import { FieldInputError, invalidField, RowsInputError } from '../../http/errors';
import type { Lang } from '../../http/messages';
import { readXlsxRows } from '../../xlsx-read';
import type { MountedResource } from '../binding';
import { labelField, mountedResource, refFields } from '../refs';
import { insertRows, liveRows, transaction, updateRow } from '../write';
import {
  type Column,
  cellText,
  excelColumns,
  keyFields,
  loadDicts,
  NO,
  norm,
  normalizeDate,
  YES,
} from './columns';

/**
 * `<path>/excel/import` and its `progress`: every row is checked with the form's rules (and the definition's
 * uniqueness); one bad row imports nothing and the answer lists every bad row. A row whose key field
 * (excel.key) matches a live row updates it, so importing the same file twice changes nothing the second
 * time. Rows are written through the engine's one write path (write.ts).
 */

/** values per lookup of the file's unique values (bound parameters of one statement) */
const LOOKUP_CHUNK = 1000;
const MAX_ERRORS = 500;
const PROGRESS_TTL = 600;

const progressKey = (ctx: RequestContext, def: ResourceDef, key: string) =>
  `excel-progress:${ctx.tenantId}:${ctx.userId}:${def.key}:${key}`;

export function mountImport(
  app: FastifyInstance,
  m: MountedResource,
  paths: { import: string; progress: string },
) {
  const { def, db } = m;
  const code = def.permission;
  app.get(paths.progress, async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, `${code}_import`);
    const key = (req.query as Record<string, string>).key ?? '';
    if (!/^[A-Za-z0-9-]{8,64}$/.test(key)) throw invalidField('key');
    const raw = await app.deps.kv.get(progressKey(ctx, def, key));
    return ok(req, raw ? JSON.parse(raw) : null);
  });

  app.post(paths.import, async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, `${code}_import`);
    const query = req.query as Record<string, string>;
    const key = query.progressKey;
    if (key !== undefined && !/^[A-Za-z0-9-]{8,64}$/.test(key)) throw invalidField('progressKey');
    let lastReport = 0;
    const report = async (phase: 'read' | 'check' | 'write' | 'done', done: number, total: number) => {
      if (!key) return;
      const now = Date.now();
      if (phase !== 'done' && done !== 0 && now - lastReport < 250) return;
      lastReport = now;
      await app.deps.kv.set(progressKey(ctx, def, key), JSON.stringify({ phase, done, total }), PROGRESS_TTL);
    };
    await report('read', 0, 0);
    const cs = excelColumns(def);
    const rows = await readSheet(await readUpload(req), cs);
    // a key naming a live row updates it unless the definition asks the request to say so (isCovered=1)
    const cover = def.excel?.cover;
    const updates = !cover || query[cover] === '1' || query[cover] === 'true';
    const result = await importRows(m, ctx, rows, cs, report, req.lang, updates);
    await report('done', rows.length, rows.length);
    return ok(req, result);
  });
}

async function readSheet(buf: Buffer, columns: Column[]) {
  const rows: { line: number; values: Record<string, string> }[] = [];
  const index = new Map<number, string>();
  // streamed, with the limits of xlsx-read.ts (bytes inflated, compression ratio, rows, columns, cell
  // length, shared strings) checked while the file inflates: a zip bomb is a 400, not a frozen server
  await readXlsxRows(buf, (cells, line) => {
    if (line === 1) {
      cells.forEach((cell, col) => {
        const text = cellText(cell ?? null).trim();
        const c = columns.find((x) => x.header.zh === text || x.header.en === text || x.key === text);
        if (c) index.set(col, c.key);
      });
      if (!index.size) throw noHeaders();
      return;
    }
    if (!index.size) throw noHeaders();
    const values: Record<string, string> = {};
    let any = false;
    cells.forEach((cell, col) => {
      const key = index.get(col);
      if (!key) return;
      // a leading apostrophe is how exports keep formula-looking text as text
      const text = cellText(cell ?? null)
        .trim()
        .replace(/^'(?=[=+\-@])/, '');
      if (text) any = true;
      values[key] = text;
    });
    if (any) rows.push({ line, values });
  });
  if (!index.size) throw noHeaders();
  return rows;
}

const noHeaders = () =>
  new FieldInputError('file', {
    zh: '第一行应为列标题(可下载导入模板)',
    en: 'The first row must hold the column headers (download the template)',
  });

/** The rows of a referenced resource the caller may see: its key (ID number) → id, and label → ids. */
async function refIndex(ctx: RequestContext, f: FieldDef) {
  const m = mountedResource(f.ref!);
  const labelName = m.def.select!.label;
  const [keyName, ...more] = keyFields(m.def);
  if (more.length) throw new Error(`${m.def.key}: a reference is matched by a one-field key`);
  const rows = (await m.db
    .select({
      id: m.cols.id,
      label: m.cols[labelName],
      ...(keyName ? { key: m.cols[keyName] } : {}),
    })
    .from(m.table)
    .where(await m.constraint(ctx))) as { id: string; label: string | null; key?: string | null }[];
  const byKey = new Map<string, string>();
  const byLabel = new Map<string, string[]>();
  for (const r of rows) {
    if (r.key) byKey.set(String(r.key).toUpperCase(), r.id);
    const l = String(r.label ?? '');
    byLabel.set(l, [...(byLabel.get(l) ?? []), r.id]);
  }
  return { byKey, byLabel, target: m.def };
}

/** A tree's rows in the caller's tenant (a user's roles, departments): label → ids. */
async function treeIndex(ctx: RequestContext, f: FieldDef) {
  const m = mountedResource(f.tree!);
  const label = m.cols[labelField(m.def)];
  const rows = (await m.db
    .select({ id: m.cols.id, label })
    .from(m.table)
    .where(and(...liveRows(m), ...(m.def.tenant ? [eq(m.cols.tenantId, ctx.tenantId)] : [])))) as {
    id: string;
    label: string | null;
  }[];
  const byLabel = new Map<string, string[]>();
  for (const r of rows) {
    const l = String(r.label ?? '');
    byLabel.set(l, [...(byLabel.get(l) ?? []), r.id]);
  }
  return { byKey: new Map<string, string>(), byLabel, target: m.def };
}

type Report = (phase: 'read' | 'check' | 'write' | 'done', done: number, total: number) => Promise<void>;

async function importRows(
  m: MountedResource,
  ctx: RequestContext,
  rows: { line: number; values: Record<string, string> }[],
  cs: Column[],
  report: Report,
  lang: Lang,
  /** whether a row whose key names a live row updates it (otherwise: the value already exists) */
  keyUpdates = true,
) {
  const { def, db, cols, table, hooks } = m;
  const dicts = await loadDicts(db, def, lang);
  const refs = new Map<string, Awaited<ReturnType<typeof refIndex>>>();
  for (const f of refFields(def)) if (cs.some((c) => c.field === f)) refs.set(f.name, await refIndex(ctx, f));
  for (const c of cs)
    if (c.field.type === 'ids' && c.field.tree) refs.set(c.field.name, await treeIndex(ctx, c.field));
  // the key (one field or several: a household's income per year) and each unique field are value sets
  const key = keyFields(def);
  const keyId = key.join('+');
  const sets = [...uniqueSets(def), ...(key.length ? [key] : [])].filter(
    (set, i, all) => all.findIndex((x) => x.join('+') === set.join('+')) === i,
  );
  const setValue = (set: string[], r: Record<string, unknown>) => {
    const parts = set.map((f) => r[f]);
    return parts.some((v) => v === null || v === undefined || v === '')
      ? undefined
      : parts.map(norm).join('\u0001');
  };
  const errors: ConstructorParameters<typeof RowsInputError>[0] = [];
  const seen = new Map<string, Map<string, number>>(sets.map((set) => [set.join('+'), new Map()]));
  const creates: Record<string, unknown>[] = [];
  const updates: { id: string; record: Record<string, unknown> }[] = [];
  const en = (zh: string, english: string) => ({ zh, en: english });
  let checked = 0;
  // first every row's values as the form would send them (labels to keys, names to ids)
  const read: { line: number; wire: Record<string, unknown>; rowErrors: typeof errors }[] = [];
  for (const { line, values } of rows) {
    const rowErrors: typeof errors = [];
    const fail = (field: string, message: Text2) => rowErrors.push({ row: line, field, message });
    const wire: Record<string, unknown> = {};
    for (const c of cs) {
      if (c.refKey) continue;
      const f = c.field;
      let raw = (values[c.key] ?? '').trim();
      if (raw && f.dict) {
        const e = dicts.get(f.dict);
        const keys = raw.split(/[,，、]/).map((s) => s.trim());
        const mapped = keys.map((k) => e?.byLabel.get(k) ?? (e?.byKey.has(k) ? k : undefined));
        if (mapped.some((k) => k === undefined)) {
          fail(
            f.name,
            en(`${f.label.zh}"${raw}"不是可选值`, `${f.label.en} "${raw}" is not one of the options`),
          );
          continue;
        }
        raw = mapped.join(',');
      } else if (raw && f.type === 'switch') {
        const low = raw.toLowerCase();
        if (YES.has(low)) raw = '1';
        else if (NO.has(low)) raw = '0';
        else {
          fail(f.name, en(`${f.label.zh}只能填写 是 或 否`, `${f.label.en} must be Yes or No`));
          continue;
        }
      } else if (f.type === 'ref' || f.type === 'refs' || f.type === 'ids') {
        const index = refs.get(f.name)!;
        const keyText = (values[`${f.name}$key`] ?? '').trim().toUpperCase();
        if (f.type === 'ref' && keyText) {
          const id = index.byKey.get(keyText);
          if (!id) {
            fail(
              f.name,
              en(`${f.label.zh}"${keyText}"未登记`, `${f.label.en} "${keyText}" is not on record`),
            );
            continue;
          }
          raw = id;
        } else if (raw) {
          const ids: string[] = [];
          for (const name of raw
            .split(/[,，、;；]/)
            .map((s) => s.trim())
            .filter(Boolean)) {
            const hits = index.byLabel.get(name) ?? [];
            if (hits.length === 1) ids.push(hits[0]);
            else if (!hits.length)
              fail(f.name, en(`${f.label.zh}"${name}"未登记`, `${f.label.en} "${name}" is not on record`));
            else
              fail(
                f.name,
                en(
                  `${f.label.zh}"${name}"有重名,请填写${f.label.zh}的身份证号`,
                  `${f.label.en} "${name}" is not unique: give the ID number`,
                ),
              );
          }
          raw = ids.join(',');
        }
      } else if (raw && (f.type === 'date' || f.type === 'datetime')) raw = normalizeDate(raw);
      wire[f.name] = raw;
    }
    {
      // the form's rules, field by field (every bad field of the row is reported)
      const failed = new Set(rowErrors.map((e) => e.field));
      for (const c of cs) {
        if (c.refKey || c.field.readOnly || failed.has(c.field.name)) continue;
        const err = checkField(c.field, wire[c.field.name]);
        if (err) fail(c.field.name, err);
      }
    }
    // a row is matched by its key, so an import needs it even where the form does not (re-imports update)
    for (const k of key) {
      const f = def.fields.find((x) => x.name === k)!;
      if ((wire[k] === undefined || wire[k] === '') && !rowErrors.some((e) => e.field === k))
        fail(
          k,
          en(
            `导入时${f.label.zh}必填,用于识别已导入的行`,
            `${f.label.en} is required in an import: it identifies rows imported before`,
          ),
        );
    }
    read.push({ line, wire, rowErrors });
    if (read.length % 500 === 0) await yieldToOthers();
  }

  // then the live rows holding the file's unique values (→ id), so a file row knows whether it updates a
  // row or clashes with one: looked up by the file's values, never by reading the whole table
  const existing = new Map<string, Map<string, string>>(sets.map((set) => [set.join('+'), new Map()]));
  for (const set of sets) {
    const first = set[0];
    const wanted = new Set<string>();
    for (const { wire, rowErrors } of read) {
      // a value the form's rules refused is no value to look up (it may not even fit the column)
      if (rowErrors.some((e) => e.field === first)) continue;
      const v = wire[first];
      if (v === undefined || v === null || v === '') continue;
      const text = String(v).trim();
      for (const variant of [text, text.toUpperCase(), text.toLowerCase()]) wanted.add(variant);
    }
    const list = [...wanted];
    for (let i = 0; i < list.length; i += LOOKUP_CHUNK) {
      const where: SQL[] = [...liveRows(m), inArray(cols[first], list.slice(i, i + LOOKUP_CHUNK))];
      if (def.tenant) where.push(eq(cols.tenantId, ctx.tenantId));
      const found = await db
        .select({ id: cols.id, ...Object.fromEntries(set.map((u) => [u, cols[u]])) })
        .from(table)
        .where(and(...where));
      for (const r of found as Record<string, unknown>[]) {
        const v = setValue(set, r);
        if (v !== undefined) existing.get(set.join('+'))!.set(v, String(r.id));
      }
    }
  }
  // the key's matches must be rows the caller may change (tenant and data scope)
  const visible = key.length
    ? await visibleIds(m, ctx, [...existing.get(keyId)!.values()])
    : new Set<string>();

  for (const { line, wire, rowErrors } of read) {
    const fail = (field: string, message: Text2) => rowErrors.push({ row: line, field, message });
    // a key that names a live row updates it: only the file's columns change, the rest is kept
    let id: string | undefined;
    const keyValue = key.length ? setValue(key, wire) : undefined;
    const keyHit = keyValue !== undefined ? existing.get(keyId)?.get(keyValue) : undefined;
    if (keyHit && visible.has(keyHit) && keyUpdates) id = keyHit;
    let record: Record<string, unknown> | undefined;
    if (!rowErrors.length) {
      const parsed = parseRecord(def, wire, id ? 'update' : 'create');
      if (parsed.error) fail(parsed.error.field, parsed.error.message);
      else record = parsed.record;
    }
    if (record) {
      for (const set of sets) {
        const v = setValue(set, { ...wire, ...record });
        if (v === undefined) continue;
        const u = set[0];
        const label = (lang: 'zh' | 'en') =>
          set
            .map((name) => def.fields.find((x) => x.name === name)!.label[lang])
            .join(lang === 'zh' ? '+' : ' + ');
        const firstLine = seen.get(set.join('+'))!.get(v);
        if (firstLine !== undefined) {
          fail(u, en(`${label('zh')}与第 ${firstLine} 行重复`, `${label('en')} repeats row ${firstLine}`));
          continue;
        }
        seen.get(set.join('+'))!.set(v, line);
        const hit = existing.get(set.join('+'))?.get(v);
        // a row the caller may not change is answered like any taken value (as the form answers it):
        // the file learns nothing about rows outside the caller's scope
        if (hit && hit !== id) fail(u, uniqueTaken(def, set));
      }
    }
    if (record && !rowErrors.length && hooks.beforeWrite) {
      try {
        await hooks.beforeWrite(ctx, record, id ? 'update' : 'create', id, undefined, 'import');
      } catch (e) {
        if (e instanceof FieldInputError) fail(e.field, e.text);
        else throw e;
      }
    }
    if (rowErrors.length) {
      if (errors.length < MAX_ERRORS) errors.push(...rowErrors.slice(0, MAX_ERRORS - errors.length));
    } else if (record) {
      if (id) updates.push({ id, record });
      else creates.push(record);
    }
    if (++checked % 500 === 0) await report('check', checked, rows.length);
  }
  if (!rows.length)
    throw new FieldInputError('file', { zh: '文件中没有数据行', en: 'The file holds no data rows' });
  if (errors.length) throw new RowsInputError(errors);

  const total = creates.length + updates.length;
  let written = 0;
  // before the transaction: on PGlite (one connection) a query outside an open transaction waits for it
  const scope = await m.constraint(ctx);
  // the engine's one write path, as submit writes (base columns, tenant, the binding's after-hooks)
  const created = await transaction(db, async (tx) => {
    const rows = await insertRows(m, ctx, tx, creates, {
      onChunk: async (n) => {
        written = n;
        await report('write', written, total);
      },
    });
    for (const u of updates) {
      await updateRow(m, ctx, tx, u.id, u.record, scope);
      if (++written % 200 === 0) await report('write', written, total);
    }
    return rows;
  });
  if (hooks.afterCommit) {
    if (created.length)
      await hooks.afterCommit(ctx, {
        mode: 'create',
        ids: created.map((c) => String(c.row.id)),
        records: creates,
      });
    if (updates.length)
      await hooks.afterCommit(ctx, {
        mode: 'update',
        ids: updates.map((u) => u.id),
        records: updates.map((u) => u.record),
      });
  }
  return { created: creates.length, updated: updates.length, total };
}

/** Which of these ids the caller may change (tenant and data scope). */
async function visibleIds(m: MountedResource, ctx: RequestContext, ids: string[]) {
  const visible = new Set<string>();
  const scope = await m.constraint(ctx);
  for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
    const rows = await m.db
      .select({ id: m.cols.id })
      .from(m.table)
      .where(and(scope, inArray(m.cols.id, ids.slice(i, i + LOOKUP_CHUNK))));
    for (const r of rows) visible.add(String(r.id));
  }
  return visible;
}

/** Lets requests waiting meanwhile (the import's own progress among them) be answered. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));
