import { checkField, DICT_FIELDS, type DictEntry, type FieldDef, isId, type Text2 } from '@smart/contracts';
import { and, asc, count, eq, ilike, inArray, ne, notInArray, or, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import type { ResourceHooks, Row } from '../../platform/crud/binding';
import { forgetDictNames } from '../../platform/crud/dict-names';
import { endpoint } from '../../platform/crud/endpoints';
import { descendantIds } from '../../platform/crud/tree-walk';
import { type Db, schema } from '../../platform/db';
import { dictValueIn } from '../../platform/dicts';
import { FieldInputError, invalidField } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { PageQuery, pagedList } from '../../platform/paging';
import { containsPattern, notDeleted } from '../../platform/sql';
import { buildTree } from '../../platform/tree';

/**
 * Dictionaries (spec §2, §3, §5, §7) on the resource engine: platform ones (`dictResource`, blade_dict, read
 * by every tenant, changed by the platform tenant only) and the tenant's own (`dictBizResource`,
 * blade_dict_biz). One dictionary is a parent row (parentId '0', dictKey '-1') naming it by `code`; its
 * entries are rows below it that share the code and may nest.
 *
 * The engine serves list (the whole tree, filtered), detail, submit and remove (a dictionary takes its
 * entries along: `removeSubtree`), with tenant, data scope and permission codes; this binding adds what a
 * field cannot say — an entry's code is its parent's and its key is required, a dictionary's key is -1, a
 * code is unique among dictionaries and a key within its dictionary (keys moving along with a moved subtree
 * included), a moved row takes its subtree into the new dictionary, a sealed row (anywhere in what would go)
 * refuses a removal — and the screens' other views as endpoints: parent-list, child-list, and the two
 * pickers every signed-in user reads (tree, dictionary).
 */

const filterText = z.string().max(255).optional();
/** a list is answered whole when no page is asked for; past this many rows a screen must page */
const LIST_LIMIT = 5000;

const text = (zh: string, en: string): Text2 => ({ zh, en });

/** an entry's key is required (a dictionary's is -1) */
const ENTRY_KEY: FieldDef = { ...DICT_FIELDS.dictKey, required: true };

export const DICT_MESSAGES = {
  parentInvalid: text('上级字典无效', 'the parent dictionary is invalid'),
  codeExists: text('字典编号已存在', 'dictionary number already exists'),
  keyExists: text('字典键值已存在', 'dictionary key already exists'),
  sealed: text('封存的字典不能删除', 'a sealed dictionary cannot be removed'),
};

type DictTable = typeof schema.dict | typeof schema.dictBiz;

const check = (f: FieldDef, v: unknown) => {
  const err = checkField(f, v);
  if (err) throw new FieldInputError(f.name, err);
};

/** The hooks of one dictionary table: `tenantScoped` for blade_dict_biz (rows of the caller's tenant). */
export function dictHooks(db: Db, table: DictTable, tenantScoped: boolean): ResourceHooks {
  // both tables have the same columns (dict_biz adds tenant_id): the columns render with their own table
  const d = table as typeof schema.dict;
  const tenantCol = tenantScoped ? (table as typeof schema.dictBiz).tenantId : undefined;
  const order = [asc(d.sort), asc(d.id)];
  const tree = { table, id: d.id, parentId: d.parentId };

  /**
   * the tenant's live rows (or the platform's), whatever the caller's data scope: uniqueness, and the entries
   * a dictionary takes along on a move, are the whole dictionary's
   */
  const whole = (ctx: RequestContext): SQL =>
    and(notDeleted(d.isDeleted), ...(tenantCol ? [eq(tenantCol, ctx.tenantId)] : [])) as SQL;

  const nameFilter = (value: string): SQL =>
    // a name matches in either language
    or(ilike(d.dictValue, containsPattern(value)), ilike(d.dictValueEn, containsPattern(value))) as SQL;

  return {
    // the value in both languages on the management screens; optional texts as ''
    toRow(row) {
      row.dictValueEn ??= '';
      row.remark ??= '';
      return row;
    },
    // dictionaries by code, each followed by its entries in order
    defaultOrder: [asc(d.code), asc(d.parentId), ...order],
    extraKeys: ['dictValue'],
    extraWhere(_ctx, query) {
      const v = query.dictValue;
      if (v === undefined || v === '') return undefined;
      if (typeof v !== 'string' || v.length > 255) throw invalidField('dictValue');
      return nameFilter(v);
    },

    async beforeValidate(_ctx, body, mode, original, scope) {
      const raw = Object.hasOwn(body, 'parentId') ? body.parentId : (original?.parentId ?? '0');
      const parentId = raw === undefined || raw === null || raw === '' ? '0' : String(raw);
      if (!isId(parentId)) throw new FieldInputError('parentId', DICT_MESSAGES.parentInvalid);
      body.parentId = parentId;
      if (parentId !== '0') {
        // a live row of this table within the caller's scope (its place in the tree: the engine's placeInTree)
        const [parent] = await db
          .select({ code: d.code })
          .from(d)
          .where(and(eq(d.id, parentId), scope))
          .limit(1);
        if (!parent) throw new FieldInputError('parentId', DICT_MESSAGES.parentInvalid);
        // a child's code is its parent's, whatever the body says
        body.code = parent.code;
      }
      // sealed defaults to no when a new row leaves it out (an empty value is still "please select")
      if (mode === 'create' && !Object.hasOwn(body, 'isSealed')) body.isSealed = 0;
    },

    async beforeWrite(ctx, record, mode, id, original) {
      const isEntry = String(record.parentId ?? original?.parentId ?? '0') !== '0';
      // an entry's key is required; a dictionary's key is -1 whatever is sent (what is sent is still checked)
      if (isEntry) check(ENTRY_KEY, Object.hasOwn(record, 'dictKey') ? record.dictKey : original?.dictKey);
      else record.dictKey = '-1';
      const dictKey = String(record.dictKey ?? original?.dictKey);
      const dictCode = String(record.code ?? original?.code);
      const scope = whole(ctx);

      // a dictionary's code is unique among dictionaries
      if (!isEntry) {
        const [clash] = await db
          .select({ id: d.id })
          .from(d)
          .where(and(scope, eq(d.parentId, '0'), eq(d.code, dictCode), ...(id ? [ne(d.id, id)] : [])))
          .limit(1);
        if (clash) throw new FieldInputError('code', DICT_MESSAGES.codeExists);
      }
      // an entry's key is unique within its dictionary, and so are those of the entries that move with it
      const keys = new Set<string>(isEntry ? [dictKey] : []);
      let below: string[] = [];
      if (mode === 'update' && original && original.code !== dictCode) {
        below = await descendantIds(db, tree, [id!], scope);
        if (below.length) {
          const rows = await db.select({ dictKey: d.dictKey }).from(d).where(inArray(d.id, below));
          for (const r of rows) keys.add(r.dictKey);
        }
      }
      if (!keys.size) return;
      const [clash] = await db
        .select({ id: d.id })
        .from(d)
        .where(
          and(
            scope,
            eq(d.code, dictCode),
            ne(d.parentId, '0'),
            inArray(d.dictKey, [...keys]),
            ...(id ? [notInArray(d.id, [id, ...below])] : []),
          ),
        )
        .limit(1);
      if (clash) throw new FieldInputError('dictKey', DICT_MESSAGES.keyExists);
    },

    /** a row moved into another dictionary (or a dictionary renamed) takes its subtree along */
    async afterChange(ctx, changes, tx) {
      for (const c of changes) {
        if (c.mode !== 'update' || !c.original || c.original.code === c.row.code) continue;
        const below = await descendantIds(tx, tree, [c.row.id as string], whole(ctx));
        if (below.length)
          await tx
            .update(d)
            .set({ code: c.row.code as string })
            .where(and(inArray(d.id, below), whole(ctx)));
      }
    },

    // a dictionary takes its entries along (removeSubtree), and a sealed row anywhere in them refuses it all
    removeSubtree: true,
    async beforeRemove(_ctx, ids, tx) {
      const [sealed] = await tx
        .select({ id: d.id })
        .from(d)
        .where(and(inArray(d.id, ids), eq(d.isSealed, 1)))
        .limit(1);
      if (sealed) throw new FieldInputError('isSealed', DICT_MESSAGES.sealed);
    },

    // the kept labels of platform dictionaries (platform/crud/dict-names.ts) are read again
    onChanged: tenantScoped ? undefined : forgetDictNames,

    endpoints: [
      /** The dictionaries themselves (parent rows), paged. */
      endpoint({
        method: 'GET',
        path: 'parent-list',
        query: z.object({ code: filterText, dictValue: filterText, ...PageQuery.shape }),
        async handler({ req, ctx, resource, scope, query: q }) {
          const where = and(
            scope,
            eq(d.parentId, '0'),
            ...(q.code ? [ilike(d.code, containsPattern(q.code))] : []),
            ...(q.dictValue ? [nameFilter(q.dictValue)] : []),
          );
          return pagedList(q, {
            rows: db
              .select(resource.listSelection)
              .from(d)
              .where(where)
              .orderBy(...order),
            total: db.select({ total: count() }).from(d).where(where),
            records: (rows) => resource.output(ctx, rows as Row[], req.lang),
          });
        },
      }),

      /** The entries below one row, as a tree (entries may nest); [] when the row is not the caller's. */
      endpoint({
        method: 'GET',
        path: 'child-list',
        query: z.object({ parentId: idString }),
        async handler({ req, ctx, resource, scope, query }) {
          const [parent] = await db
            .select({ id: d.id, code: d.code })
            .from(d)
            .where(and(eq(d.id, query.parentId), scope))
            .limit(1);
          if (!parent) return [];
          // the whole dictionary in one read (entries share their parent's code), then the subtree below it
          const rows = await db
            .select(resource.listSelection)
            .from(d)
            .where(and(eq(d.code, parent.code), scope))
            .orderBy(...order)
            .limit(LIST_LIMIT);
          type Node = Row & { id: string; parentId: string; children: Node[] };
          const forest = buildTree(
            (await resource.output(ctx, rows as Row[], req.lang)) as { id: string; parentId: string }[],
          ) as Node[];
          const find = (nodes: Node[]): Node | undefined => {
            for (const n of nodes) {
              if (n.id === parent.id) return n;
              const hit = find(n.children);
              if (hit) return hit;
            }
            return undefined;
          };
          return find(forest)?.children ?? [];
        },
      }),

      /**
       * The picker tree: code DICT (or none) is every dictionary with its entries; another code, that one.
       * Titles are in the caller's language. Replaces the engine's generic tree.
       */
      endpoint({
        method: 'GET',
        path: 'tree',
        picker: true,
        query: z.object({ code: filterText }),
        async handler({ req, scope, query }) {
          const only = query.code && query.code !== 'DICT' ? query.code : undefined;
          const rows = await db
            .select({ id: d.id, parentId: d.parentId, title: dictValueIn(req.lang, table) })
            .from(d)
            .where(and(scope, ...(only ? [eq(d.code, only)] : [])))
            .orderBy(...order)
            .limit(LIST_LIMIT);
          return buildTree(
            rows.map((r) => ({ id: r.id, parentId: r.parentId, title: r.title, key: r.id, value: r.id })),
          );
        },
      }),

      /** The entries of one dictionary, in order, in the caller's language: every screen's selects read it. */
      endpoint({
        method: 'GET',
        path: 'dictionary',
        picker: true,
        query: z.object({ code: z.string().min(1).max(255) }),
        async handler({ req, scope, query }) {
          const rows = await db
            .select({
              id: d.id,
              parentId: d.parentId,
              code: d.code,
              dictKey: d.dictKey,
              dictValue: dictValueIn(req.lang, table),
              sort: d.sort,
              remark: d.remark,
              isSealed: d.isSealed,
            })
            .from(d)
            .where(and(eq(d.code, query.code), ne(d.parentId, '0'), scope))
            .orderBy(...order);
          return rows.map(
            (r): DictEntry => ({
              id: r.id,
              parentId: r.parentId,
              code: r.code,
              dictKey: r.dictKey,
              dictValue: r.dictValue,
              sort: r.sort,
              remark: r.remark ?? '',
              isSealed: r.isSealed,
            }),
          );
        },
      }),
    ],
  };
}

/** Both dictionary tables, bound to their definitions (modules/resources.ts). */
export const dictBindings = (db: Db) => ({
  dict: { table: schema.dict, hooks: dictHooks(db, schema.dict, false) },
  dictBiz: { table: schema.dictBiz, hooks: dictHooks(db, schema.dictBiz, true) },
});
