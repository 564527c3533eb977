import {
  type ChildDecl,
  fill,
  isId,
  parseRecord,
  type ResourceDef,
  type Text2,
  uniqueSets,
  uniqueTaken,
} from '@smart/contracts';
import { and, eq, inArray, ne, type SQL } from 'drizzle-orm';
import type { RequestContext } from '../auth/context';
import type { Db } from '../db';
import { FieldInputError, notFound } from '../http/errors';
import type { Lang } from '../http/messages';
import type { MountedResource, Row } from './binding';
import { mountedResource } from './refs';
import { insertRows, removeRows, updateRow } from './write';

/**
 * Child resources (`ResourceDef.children`): rows that belong to one parent row — a plan's steps — sent and
 * answered with it under the declaration's `name`. Each row is checked by the child's own definition and
 * passes the child's own checks (its hooks, references, unique keys) before the parent's transaction; in
 * that transaction the rows sent replace the parent's (kept ones updated, new ones added, the others
 * removed), each through the child's write path. Removing the parent removes its children (write.ts).
 */

/** a row of a submit's children as its definition checked it: a kept row's id, the fields it writes */
export interface SentChild {
  id?: string;
  record: Record<string, unknown>;
  /** a kept row as it is (read before the write: what the child's hooks see) */
  original?: Row;
}

/** the children a submit sent, by declaration; a declaration not sent keeps its rows as they are */
export type SentChildren = Map<ChildDecl, SentChild[]>;

const DEFAULT_MAX = 100;

/** the mounted child of a declaration (mounted with every resource, before any request) */
const childOf = (decl: ChildDecl): MountedResource => mountedResource(decl.resource.key);

/** a row's problem, named by its place: 第 2 步:计划日期无效 */
const rowProblem = (decl: ChildDecl, n: number, message: Text2, glue: Text2 = { zh: ':', en: ': ' }) => {
  const row = fill(decl.row, { n });
  return new FieldInputError(decl.name, {
    zh: `${row.zh}${glue.zh}${message.zh}`,
    en: `${row.en}${glue.en}${message.en}`,
  });
};

const badFormat = (decl: ChildDecl, n: number) =>
  rowProblem(decl, n, { zh: '格式不正确', en: 'has an incorrect format' }, { zh: '', en: ' ' });

/**
 * The children a submit's body sends, each row checked by the child's definition (as a whole row: a kept
 * row is sent with all its fields, as the form holds it). A list may come as JSON text (a form's field).
 */
export function readChildren(def: ResourceDef, body: Record<string, unknown>): SentChildren {
  const sent: SentChildren = new Map();
  for (const decl of def.children ?? []) {
    if (!Object.hasOwn(body, decl.name)) continue;
    let list: unknown = body[decl.name];
    if (typeof list === 'string') {
      try {
        list = list.trim() ? JSON.parse(list) : [];
      } catch {
        list = undefined;
      }
    }
    if (list === null) list = [];
    if (!Array.isArray(list) || list.length > (decl.max ?? DEFAULT_MAX))
      throw new FieldInputError(decl.name, {
        zh: `${decl.label.zh}格式不正确`,
        en: `The ${decl.label.en.toLowerCase()} have an incorrect format`,
      });
    sent.set(
      decl,
      list.map((raw, i) => {
        if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw badFormat(decl, i + 1);
        const row = raw as Record<string, unknown>;
        const id = row.id === undefined || row.id === null || row.id === '' ? undefined : String(row.id);
        if (id !== undefined && !isId(id)) throw badFormat(decl, i + 1);
        // the parent is the one being written: any id passes the reference's own rule here
        const parsed = parseRecord(decl.resource, { ...row, [decl.via]: '1' }, 'create');
        if (parsed.error) throw rowProblem(decl, i + 1, parsed.error.message);
        const { [decl.via]: _parent, ...record } = parsed.record;
        return { id, record };
      }),
    );
  }
  return sent;
}

const notInParent = (decl: ChildDecl) =>
  new FieldInputError(decl.name, {
    zh: `${decl.label.zh}不存在`,
    en: `Not one of its ${decl.label.en.toLowerCase()}`,
  });

/**
 * The checks each sent row passes before the parent's transaction, as a submit of the child would: a kept
 * row must be one of this parent's within the caller's reach (its row as it is becomes its original), then
 * the child's hooks, references and unique keys (a key shared by two rows sent is refused too).
 */
export async function checkChildren(
  ctx: RequestContext,
  db: Db,
  sent: SentChildren,
  parentId: string | undefined,
): Promise<void> {
  for (const [decl, rows] of sent) {
    const child = childOf(decl);
    const keptIds = rows.flatMap((r) => (r.id ? [r.id] : []));
    if (new Set(keptIds).size !== keptIds.length) throw notInParent(decl);
    const present = new Map<string, Row>();
    if (keptIds.length) {
      if (!parentId) throw notInParent(decl);
      const found = (await db
        .select(child.selection)
        .from(child.table)
        .where(
          and(
            inArray(child.cols.id, keptIds),
            eq(child.cols[decl.via], parentId),
            await child.constraint(ctx),
          ),
        )) as Row[];
      for (const r of found) present.set(String(r.id), r);
      if (present.size !== keptIds.length) throw notInParent(decl);
    }
    // the parent's own rows are replaced by the rows sent: only other parents' rows can clash
    const others = parentId ? ne(child.cols[decl.via], parentId) : undefined;
    const seen = new Map<string, number>();
    for (const [i, row] of rows.entries()) {
      row.original = row.id ? present.get(row.id) : undefined;
      const record = parentId ? { ...row.record, [decl.via]: parentId } : row.record;
      try {
        await child.check(ctx, record, row.id ? 'update' : 'create', row.id, row.original, {
          except: others,
        });
        for (const [k, set] of uniqueSets(child.def).entries()) {
          const values = set.map((f) => record[f]);
          if (values.some((v) => v === undefined || v === null)) continue;
          const key = JSON.stringify([k, ...values]);
          if (seen.has(key)) throw new FieldInputError(set[0], uniqueTaken(child.def, set));
          seen.set(key, i);
        }
      } catch (err) {
        if (err instanceof FieldInputError) throw rowProblem(decl, i + 1, err.text);
        throw err;
      }
      if (parentId) delete record[decl.via];
      row.record = record;
    }
  }
}

/**
 * Writes the rows sent for one parent inside its transaction, each through the child's write path: the
 * parent's rows not sent are removed, kept ones updated, new ones added (in that order: a unique key may
 * pass from a removed row to a new one).
 */
export async function writeChildren(
  ctx: RequestContext,
  tx: Db,
  sent: SentChildren,
  parentId: string,
): Promise<void> {
  for (const [decl, rows] of sent) {
    const child = childOf(decl);
    const scope = and(await child.constraint(ctx, tx), eq(child.cols[decl.via], parentId)) as SQL;
    const now = (await tx.select({ id: child.cols.id }).from(child.table).where(scope)).map((r) =>
      String(r.id),
    );
    const kept = new Set(rows.flatMap((r) => (r.id ? [r.id] : [])));
    // a kept row removed meanwhile is not found, as an edit of it would be
    for (const id of kept) if (!now.includes(id)) throw notFound();
    const gone = now.filter((id) => !kept.has(id));
    if (gone.length && !(await removeRows(child, ctx, tx, gone, scope))) throw notFound();
    for (const r of rows)
      if (r.id && !(await updateRow(child, ctx, tx, r.id, { ...r.record }, scope, r.original)))
        throw notFound();
    const added = rows.filter((r) => !r.id).map((r) => ({ ...r.record, [decl.via]: parentId }));
    if (added.length) await insertRows(child, ctx, tx, added);
  }
}

/**
 * Answers each row's children under their names, as the child answers them (its labels, its `toRow`), in
 * the child's order: one query per declaration for all the rows.
 */
export async function attachChildren(
  ctx: RequestContext,
  db: Db,
  def: ResourceDef,
  rows: Row[],
  lang: Lang,
): Promise<Row[]> {
  if (!def.children?.length || !rows.length) return rows;
  const ids = rows.map((r) => String(r.id));
  for (const decl of def.children) {
    const child = childOf(decl);
    const found = (await db
      .select(child.listSelection)
      .from(child.table)
      .where(and(inArray(child.cols[decl.via], ids), await child.constraint(ctx)))
      .orderBy(...child.defaultOrder)) as Row[];
    const byParent = new Map<string, Row[]>();
    for (const r of await child.output(ctx, found, lang)) {
      const parent = String(r[decl.via]);
      const list = byParent.get(parent);
      if (list) list.push(r);
      else byParent.set(parent, [r]);
    }
    for (const r of rows) r[decl.name] = byParent.get(String(r.id)) ?? [];
  }
  return rows;
}
