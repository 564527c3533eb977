import type { FieldDef, ResourceDef } from '@smart/contracts';
import { isRowKey, RESOURCES, refLabelKey, routePrefix, uniqueSets } from '@smart/contracts';
import { and, asc, eq, ilike, inArray, isNotNull, notInArray, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireAnyPermission } from '../access/permissions';
import { type RequestContext, requireCtx } from '../auth/context';
import type { Db } from '../db';
import { ok } from '../http/envelope';
import { FieldInputError, invalidField } from '../http/errors';
import type { Lang } from '../http/messages';
import { containsPattern } from '../sql';
import type { MountedResource } from './binding';

/**
 * References between resources (`ref` / `refs` fields): a written id must name a row the caller may see
 * in the referenced resource; rows are answered with the referenced row's label beside the id
 * (villagerId → villagerName); and a referenced resource offers a searchable picker (GET <path>/select).
 */

/** Every mounted resource by key, so a reference can reach the table and constraint of its target. */
export const mountedByKey = new Map<string, MountedResource>();

/** The mounted resource of a key: one the server never mounted is the server's own mistake. */
export function mountedResource(key: string): MountedResource {
  const m = mountedByKey.get(key);
  if (!m) throw new Error(`resource ${key} is not mounted`);
  return m;
}

/**
 * The caller's constraint on a resource's rows, by key (tenant, live rows, data scope): what a read of them
 * beyond the resource's own routes adds (dashboards, another resource's hooks); `via` a transaction's handle,
 * for a read inside one.
 */
export async function readableRows(key: string, ctx: RequestContext, via?: Db): Promise<SQL> {
  return mountedResource(key).constraint(ctx, via);
}

export const refFields = (def: ResourceDef) =>
  def.fields.filter((f) => (f.type === 'ref' || f.type === 'refs') && f.ref && !f.tree);

const splitIds = (v: unknown): string[] =>
  v === null || v === undefined || v === ''
    ? []
    : String(v)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

/**
 * The field that names a resource's rows to people: its picker's label, else its first `…Name` field (a
 * role's roleName, a department's deptName).
 */
export const labelField = (def: ResourceDef): string =>
  def.select?.label ?? def.fields.find((f) => f.name.endsWith('Name'))?.name ?? def.fields[0].name;

function target(f: FieldDef): MountedResource & { labelCol: PgColumn } {
  const m = mountedByKey.get(f.ref!);
  const label = m?.def.select?.label;
  if (!m || !label)
    throw new Error(`field ${f.name}: ${f.ref} is not a mounted resource with a select label`);
  return Object.assign(m, { labelCol: m.cols[label] });
}

/** Refuses (400 naming the field) an id the caller cannot see in the referenced resource. */
export async function checkRefs(
  db: Db,
  ctx: RequestContext,
  def: ResourceDef,
  record: Record<string, unknown>,
) {
  const [problem] = await refProblems(db, ctx, def, [record]);
  if (problem) throw problem;
}

/**
 * What `checkRefs` says of each of `records` (undefined: its references are all visible), with one query
 * per reference field for all of them: a batch of creates is checked at once.
 */
export async function refProblems(
  db: Db,
  ctx: RequestContext,
  def: ResourceDef,
  records: Record<string, unknown>[],
): Promise<(FieldInputError | undefined)[]> {
  const problems: (FieldInputError | undefined)[] = records.map(() => undefined);
  for (const f of refFields(def)) {
    const idsOf = records.map((r) => [...new Set(splitIds(r[f.name]))]);
    const all = [...new Set(idsOf.flat())];
    if (!all.length) continue;
    const t = target(f);
    const found = new Set(
      (
        await db
          .select({ id: t.cols.id })
          .from(t.table)
          .where(and(inArray(t.cols.id, all), await t.constraint(ctx)))
      ).map((r) => String(r.id)),
    );
    records.forEach((record, i) => {
      if (problems[i] || !idsOf[i].length) return;
      if (idsOf[i].some((id) => !found.has(id)))
        problems[i] = new FieldInputError(f.name, {
          zh: `所选${f.label.zh}不存在或无权查看`,
          en: `The chosen ${f.label.en.toLowerCase()} does not exist or is not visible to you`,
        });
      else if (f.type === 'refs') record[f.name] = idsOf[i].join(',');
    });
  }
  return problems;
}

/** Adds `<name>Name` (ref) / `<name>Names` (refs) to answered rows: one query per referenced resource. */
export async function attachRefLabels(
  db: Db,
  ctx: RequestContext,
  def: ResourceDef,
  rows: Record<string, unknown>[],
  lang: Lang = 'zh',
) {
  const fields = refFields(def);
  // names of a list as the language lists them: 甲、乙 in Chinese, "a, b" in English
  const joiner = lang === 'en' ? ', ' : '、';
  if (!fields.length || !rows.length) return rows;
  const byTarget = new Map<string, FieldDef[]>();
  for (const f of fields) byTarget.set(f.ref!, [...(byTarget.get(f.ref!) ?? []), f]);
  for (const [, fs] of byTarget) {
    const ids = new Set<string>();
    for (const r of rows) for (const f of fs) for (const id of splitIds(r[f.name])) ids.add(id);
    const names = await labelsOf(db, ctx, fs[0], [...ids]);
    for (const r of rows)
      for (const f of fs) {
        const labels = splitIds(r[f.name]).map((id) => names.get(id) ?? '');
        r[refLabelKey(f)] = f.type === 'refs' ? labels.filter(Boolean).join(joiner) : (labels[0] ?? '');
      }
  }
  return rows;
}

/** Labels of rows of the referenced resource within the caller's tenant (removed rows keep their name). */
export async function labelsOf(db: Db, ctx: RequestContext, f: FieldDef, ids: string[]) {
  const names = new Map<string, string>();
  if (!ids.length) return names;
  const t = target(f);
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    const where: SQL[] = [inArray(t.cols.id, chunk)];
    if (t.def.tenant) where.push(eq(t.cols.tenantId, ctx.tenantId));
    const rows = await db
      .select({ id: t.cols.id, label: t.labelCol })
      .from(t.table)
      .where(and(...where));
    for (const r of rows) names.set(String(r.id), String(r.label ?? ''));
  }
  return names;
}

/** Permission codes that may use a resource's picker: its own menu, and the menus of resources pointing at it. */
function pickerCodes(def: ResourceDef): string[] {
  const codes = new Set([def.permission, ...(def.select?.pickedBy ?? [])]);
  for (const other of RESOURCES)
    if (other.fields.some((f) => (f.type === 'ref' || f.type === 'refs') && f.ref === def.key))
      codes.add(other.permission);
  return [...codes];
}

const SELECT_MAX = 50;

/**
 * GET <path>/select?keyword=&ids=&size= → [{ id, label, hint }]: the rows whose search fields contain the
 * keyword (or the given ids, to show the labels of current values), within the caller's constraint.
 */
export function mountSelectRoute(app: FastifyInstance, resource: MountedResource) {
  const { def, cols } = resource;
  const select = def.select;
  if (!select) return;
  const codes = pickerCodes(def);
  const hintCol = select.hint ? cols[select.hint] : undefined;
  app.get(`${routePrefix(def)}/select`, async (req) => {
    const ctx = requireCtx(req);
    await requireAnyPermission(resource.db, req, codes);
    const q = req.query as Record<string, string | undefined>;
    for (const k of Object.keys(q))
      if (!['keyword', 'ids', 'size', 'unusedBy'].includes(k)) throw invalidField(k, 'unknownFilter');
    const where: SQL[] = [await resource.constraint(ctx)];
    if (q.unusedBy && !q.ids) where.push(await unusedBy(req, ctx, def.key, q.unusedBy));
    const keyword = (q.keyword ?? '').trim();
    if (keyword.length > 50) throw invalidField('keyword');
    const ids = splitIds(q.ids);
    if (ids.length > 200 || !ids.every((id) => isRowKey(def, id))) throw invalidField('ids');
    if (ids.length) where.push(inArray(cols.id, ids));
    else if (keyword)
      where.push(or(...select.search.map((name) => containsPatternMatch(cols[name], keyword))) as SQL);
    const size = Math.min(Number(q.size) || 20, SELECT_MAX);
    const rows = await resource.db
      .select({ id: cols.id, label: cols[select.label], ...(hintCol ? { hint: hintCol } : {}) })
      .from(resource.table)
      .where(and(...where))
      .orderBy(asc(cols[select.label]), asc(cols.id))
      .limit(ids.length ? ids.length : size);
    return ok(
      req,
      rows.map((r) => ({
        id: String(r.id),
        label: String(r.label ?? ''),
        hint: r.hint === undefined || r.hint === null ? undefined : maskHint(String(r.hint)),
      })),
    );
  });
}

/**
 * `unusedBy=<resource>.<field>`: only rows no live row of that resource names in that field yet — the picker of
 * a field that is a unique key on its own (a villager becomes a party member once: the member form's picker
 * offers villagers who are not one). Asked by someone who may add or edit rows of that resource (it tells
 * which rows are used); any other name is a 400.
 */
async function unusedBy(
  req: FastifyRequest,
  ctx: RequestContext,
  targetKey: string,
  named: string,
): Promise<SQL> {
  const [key, name] = named.split('.');
  const owner = key ? mountedByKey.get(key) : undefined;
  const f = owner?.def.fields.find((x) => x.name === name);
  const alone = owner && uniqueSets(owner.def).some((set) => set.length === 1 && set[0] === name);
  if (!owner || !f || f.type !== 'ref' || f.ref !== targetKey || !alone) throw invalidField('unusedBy');
  await requireAnyPermission(owner.db, req, [`${owner.def.permission}_add`, `${owner.def.permission}_edit`]);
  const target = mountedByKey.get(targetKey) as MountedResource;
  const used = owner.db
    .select({ id: owner.cols[name] })
    .from(owner.table)
    .where(and(await owner.tenantConstraint(ctx), isNotNull(owner.cols[name])) as SQL);
  return notInArray(target.cols.id, used);
}

/** The pattern escapes % and _ : the keyword is only ever a value. */
const containsPatternMatch = (col: PgColumn, keyword: string): SQL => ilike(col, containsPattern(keyword));

/** A picker hint that tells people apart without showing a whole ID number: 4301**********1234. */
function maskHint(s: string): string {
  return s.length >= 15 ? `${s.slice(0, 4)}${'*'.repeat(s.length - 8)}${s.slice(-4)}` : s;
}
