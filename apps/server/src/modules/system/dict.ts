import {
  checkField,
  DEFAULT_TENANT_ID,
  DICT_FIELDS,
  type DictEntry,
  dictBizResource,
  dictResource,
  type FieldDef,
  isId,
  MAX_PAGE_SIZE,
  type ResourceDef,
  type Text2,
} from '@smart/contracts';
import { and, asc, count, eq, ilike, inArray, ne, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAnyPermission, requirePermission } from '../../platform/access/permissions';
import { dataScopeCondition } from '../../platform/access/scope';
import { type RequestContext, requireCtx } from '../../platform/auth/context';
import { idsParam } from '../../platform/crud/engine';
import { parseListQuery } from '../../platform/crud/query';
import { type Db, schema } from '../../platform/db';
import { dictValueIn } from '../../platform/dicts';
import { ok } from '../../platform/http/envelope';
import { badRequest, FieldInputError, forbidden, invalidField, notFound } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { toPage } from '../../platform/paging';
import { containsPattern, notDeleted } from '../../platform/sql';
import { buildTree } from '../../platform/tree';

/**
 * Dictionaries (spec §2, §3, §5, §7): platform ones (blade_dict, shared by every tenant, changed only by the
 * platform tenant) and the tenant's own (blade_dict_biz, always within the caller's tenant). One dictionary is
 * a parent row (parentId '0', dictKey '-1') naming it by `code`; its entries are rows below it that share the
 * code and may nest. The same routes serve both tables under /dict and /dict-biz.
 */

const filterText = z.string().max(255).optional();
/** a list is answered whole when no page is asked for; past this many rows a screen must page */
const LIST_LIMIT = 5000;
/** nesting deeper than this is not followed (and cannot be built through submit's checks in practice) */
const MAX_DEPTH = 32;

const text = (zh: string, en: string): Text2 => ({ zh, en });

/** The form's fields, their rules and the spec's messages (§5) are the definitions' (packages/contracts); */
/** an entry's key is required (a dictionary's is -1) */
const ENTRY_KEY: FieldDef = { ...DICT_FIELDS.dictKey, required: true };

export const DICT_MESSAGES = {
  parentInvalid: text('上级字典无效', 'the parent dictionary is invalid'),
  codeExists: text('字典编号已存在', 'dictionary number already exists'),
  keyExists: text('字典键值已存在', 'dictionary key already exists'),
  sealed: text('封存的字典不能删除', 'a sealed dictionary cannot be removed'),
};

export interface DictTableOptions {
  /** the definition (key = data-scope resource code, fields = filters and custom-scope fields) */
  def: ResourceDef;
  /** route segment: dict or dict-biz */
  path: 'dict' | 'dict-biz';
  table: typeof schema.dict | typeof schema.dictBiz;
  /** menu code; buttons are `<permission>_add|_edit|_delete|_view` */
  permission: 'dict' | 'dict_biz';
  /** rows belong to the caller's tenant (blade_dict_biz); otherwise platform rows */
  tenantScoped: boolean;
}

type Row = {
  id: string;
  parentId: string;
  code: string;
  dictKey: string;
  dictValue: string;
  dictValueEn: string | null;
  sort: number;
  remark: string | null;
  isSealed: number;
};

/** Registers /dict/... (platform) and /dict-biz/... (tenant) on the /api/dfem-system scope. */
export function registerDictRoutes(app: FastifyInstance) {
  dictRoutes(app, {
    def: dictResource,
    path: 'dict',
    table: schema.dict,
    permission: 'dict',
    tenantScoped: false,
  });
  dictRoutes(app, {
    def: dictBizResource,
    path: 'dict-biz',
    table: schema.dictBiz,
    permission: 'dict_biz',
    tenantScoped: true,
  });
}

export function dictRoutes(base: FastifyInstance, opts: DictTableOptions) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = base.deps;
  // both tables have the same columns (dict_biz adds tenant_id): the columns render with their own table
  const d = opts.table as typeof schema.dict;
  const tenantCol = opts.tenantScoped ? (opts.table as typeof schema.dictBiz).tenantId : undefined;
  const prefix = `/${opts.path}`;
  const code = opts.permission;
  const selection = {
    id: d.id,
    parentId: d.parentId,
    code: d.code,
    dictKey: d.dictKey,
    dictValue: d.dictValue,
    dictValueEn: d.dictValueEn,
    sort: d.sort,
    remark: d.remark,
    isSealed: d.isSealed,
  };
  const order = [asc(d.sort), asc(d.id)];

  /** live rows of the caller's tenant (dict-biz) or of the platform (dict): what the pickers read */
  const visible = (ctx: RequestContext): SQL =>
    and(notDeleted(d.isDeleted), ...(tenantCol ? [eq(tenantCol, ctx.tenantId)] : [])) as SQL;
  /**
   * The management screens' constraint: `visible` and the caller's data scope on the definition's key
   * (dict, dictBiz). The tables record no creator, so a scope of own rows or own depts matches no row; a
   * custom scope names a field of the definition. Uniqueness and the entries a dictionary takes along on a
   * move or a removal are the whole dictionary's, whatever the scope.
   */
  const scopeFields = Object.fromEntries(
    opts.def.fields.map((f) => [f.name, (d as unknown as Record<string, PgColumn>)[f.name]]),
  );
  const managed = async (ctx: RequestContext): Promise<SQL> => {
    const scope = await dataScopeCondition(db, ctx, opts.def.key, {
      createUser: NO_CREATOR,
      createDept: NO_CREATOR,
      fields: scopeFields,
    });
    return scope ? (and(visible(ctx), scope) as SQL) : visible(ctx);
  };
  /** the list's filters, whitelisted as every list's (anything else is a 400); dictValue matches either language */
  const listColumns = {
    byField: new Map(
      ['id', 'parentId', 'code', 'dictKey', 'sort', 'isSealed'].map((k) => [
        k,
        {
          column: (d as unknown as Record<string, PgColumn>)[k],
          field: opts.def.fields.find((f) => f.name === k),
        },
      ]),
    ),
  };

  /** a row as the management screens read it: the value in both languages, whatever the caller's */
  const output = (ctx: RequestContext, r: Row) => ({
    id: r.id,
    ...(opts.tenantScoped ? { tenantId: ctx.tenantId } : {}),
    parentId: r.parentId,
    code: r.code,
    dictKey: r.dictKey,
    dictValue: r.dictValue,
    dictValueEn: r.dictValueEn ?? '',
    sort: r.sort,
    remark: r.remark ?? '',
    isSealed: r.isSealed,
  });

  /** platform dictionaries are changed by the platform tenant only */
  const requireWritable = (ctx: RequestContext) => {
    if (!opts.tenantScoped && ctx.tenantId !== DEFAULT_TENANT_ID) throw forbidden();
  };

  /** every live row below the given ones (not the given ones), level by level */
  async function descendants(q: Db, rootIds: string[], scope: SQL): Promise<Row[]> {
    const found: Row[] = [];
    const seen = new Set(rootIds);
    let frontier = rootIds;
    for (let depth = 0; frontier.length && depth < MAX_DEPTH; depth++) {
      const rows = await q
        .select(selection)
        .from(d)
        .where(and(inArray(d.parentId, frontier), scope));
      frontier = [];
      for (const r of rows) {
        if (seen.has(r.id)) continue;
        seen.add(r.id);
        found.push(r);
        frontier.push(r.id);
      }
    }
    return found;
  }

  const likeFilters = (q: { code?: string; dictValue?: string }) => [
    ...(q.code ? [ilike(d.code, containsPattern(q.code))] : []),
    // a name matches in either language
    ...(q.dictValue
      ? [
          or(
            ilike(d.dictValue, containsPattern(q.dictValue)),
            ilike(d.dictValueEn, containsPattern(q.dictValue)),
          ) as SQL,
        ]
      : []),
  ];

  /**
   * Every entry (parents and children), filtered, as a tree (the family's screens expect the tree whatever
   * they send; `current`/`size` are checked but page nothing). Entries whose parent a filter leaves out
   * are roots.
   */
  app.get(`${prefix}/list`, async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, code);
    const query = req.query as Record<string, string>;
    const q = parseListQuery(opts.def, listColumns, query, new Set(['dictValue']));
    const dictValue = typeof query.dictValue === 'string' ? query.dictValue : undefined;
    if (dictValue !== undefined && dictValue.length > 255) throw invalidField('dictValue');
    const where = and(await managed(ctx), ...q.where, ...likeFilters({ dictValue }));
    const rows = await db
      .select(selection)
      .from(d)
      .where(where)
      .orderBy(...(q.orderBy.length ? q.orderBy : [asc(d.code), asc(d.parentId), ...order]))
      .limit(LIST_LIMIT);
    return ok(req, buildTree(rows.map((r) => output(ctx, r))));
  });

  async function page(
    ctx: RequestContext,
    where: SQL | undefined,
    current: number,
    size: number,
    orderBy: SQL[] = [],
  ) {
    const [rows, [{ total }]] = await Promise.all([
      db
        .select(selection)
        .from(d)
        .where(where)
        .orderBy(...(orderBy.length ? orderBy : order))
        .limit(size)
        .offset((current - 1) * size),
      db.select({ total: count() }).from(d).where(where),
    ]);
    return toPage(
      rows.map((r) => output(ctx, r)),
      Number(total),
      current,
      size,
    );
  }

  /** The dictionaries themselves (parent rows), paged. */
  app.get(
    `${prefix}/parent-list`,
    {
      schema: {
        querystring: z.object({
          code: filterText,
          dictValue: filterText,
          current: z.coerce.number().int().min(1).max(1_000_000).default(1),
          size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, code);
      const q = req.query;
      const where = and(await managed(ctx), eq(d.parentId, '0'), ...likeFilters(q));
      return ok(req, await page(ctx, where, q.current, q.size));
    },
  );

  /** The entries below one row, as a tree (entries may nest); [] when the row is not the caller's. */
  app.get(
    `${prefix}/child-list`,
    { schema: { querystring: z.object({ parentId: idString }) } },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, code);
      const scope = await managed(ctx);
      const [parent] = await db
        .select({ id: d.id, code: d.code })
        .from(d)
        .where(and(eq(d.id, req.query.parentId), scope))
        .limit(1);
      if (!parent) return ok(req, []);
      // the whole dictionary in one read (entries share their parent's code), then the subtree below it
      const rows = await db
        .select(selection)
        .from(d)
        .where(and(eq(d.code, parent.code), scope))
        .orderBy(...order)
        .limit(LIST_LIMIT);
      type Node = ReturnType<typeof output> & { children: Node[] };
      const forest = buildTree(rows.map((r) => output(ctx, r))) as Node[];
      const find = (nodes: Node[]): Node | undefined => {
        for (const n of nodes) {
          if (n.id === parent.id) return n;
          const hit = find(n.children);
          if (hit) return hit;
        }
        return undefined;
      };
      return ok(req, find(forest)?.children ?? []);
    },
  );

  app.get(`${prefix}/detail`, { schema: { querystring: z.object({ id: idString }) } }, async (req) => {
    const ctx = requireCtx(req);
    await requireAnyPermission(db, req, [`${code}_view`, `${code}_edit`]);
    const [row] = await db
      .select(selection)
      .from(d)
      .where(and(eq(d.id, req.query.id), await managed(ctx)))
      .limit(1);
    if (!row) throw notFound();
    return ok(req, output(ctx, row));
  });

  /**
   * The picker tree: code DICT (or none) is every dictionary with its entries; another code, that one.
   * Titles are in the caller's language.
   */
  app.get(`${prefix}/tree`, { schema: { querystring: z.object({ code: filterText }) } }, async (req) => {
    const ctx = requireCtx(req);
    const only = req.query.code && req.query.code !== 'DICT' ? req.query.code : undefined;
    const rows = await db
      .select({ id: d.id, parentId: d.parentId, title: dictValueIn(req.lang, opts.table) })
      .from(d)
      .where(and(visible(ctx), ...(only ? [eq(d.code, only)] : [])))
      .orderBy(...order)
      .limit(LIST_LIMIT);
    return ok(
      req,
      buildTree(
        rows.map((r) => ({ id: r.id, parentId: r.parentId, title: r.title, key: r.id, value: r.id })),
      ),
    );
  });

  /** The entries of one dictionary, in order, in the caller's language: every screen's selects read it. */
  app.get(
    `${prefix}/dictionary`,
    { schema: { querystring: z.object({ code: z.string().min(1).max(255) }) } },
    async (req) => {
      const ctx = requireCtx(req);
      const rows = await db
        .select({ ...selection, dictValue: dictValueIn(req.lang, opts.table) })
        .from(d)
        .where(and(eq(d.code, req.query.code), ne(d.parentId, '0'), visible(ctx)))
        .orderBy(...order);
      const entries: DictEntry[] = rows.map((r) => ({
        id: r.id,
        parentId: r.parentId,
        code: r.code,
        dictKey: r.dictKey,
        dictValue: r.dictValue,
        sort: r.sort,
        remark: r.remark ?? '',
        isSealed: r.isSealed,
      }));
      return ok(req, entries);
    },
  );

  app.post(`${prefix}/submit`, async (req) => {
    const ctx = requireCtx(req);
    const body = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest();
    const input = body as Record<string, unknown>;
    const rawId = input.id;
    const id = rawId === undefined || rawId === null || rawId === '' ? undefined : String(rawId);
    if (id !== undefined && !isId(id)) throw badRequest('fieldInvalid', { field: 'id' });
    await requirePermission(db, req, `${code}_${id ? 'edit' : 'add'}`);
    requireWritable(ctx);
    // the row and its parent are within the caller's scope; the entries below it and the clashes, the tenant's
    const own = await managed(ctx);
    const scope = visible(ctx);

    const saved = await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      let existing: Row | undefined;
      if (id) {
        [existing] = await tx
          .select(selection)
          .from(d)
          .where(and(eq(d.id, id), own))
          .limit(1);
        if (!existing) throw notFound();
      }
      // on update an absent field keeps its value; on create it is empty (isSealed and parentId default)
      const value = (name: keyof Row, fallback?: unknown) =>
        Object.hasOwn(input, name) ? input[name] : existing ? existing[name] : fallback;

      const rawParent = value('parentId', '0');
      const parentId =
        rawParent === undefined || rawParent === null || rawParent === '' ? '0' : String(rawParent);
      if (!isId(parentId)) throw new FieldInputError('parentId', DICT_MESSAGES.parentInvalid);
      let parent: Row | undefined;
      const subtree = id ? await descendants(tx, [id], scope) : [];
      if (parentId !== '0') {
        [parent] = await tx
          .select(selection)
          .from(d)
          .where(and(eq(d.id, parentId), own))
          .limit(1);
        // the parent is a live row of this table and tenant, and not the row itself or one below it
        if (!parent || parentId === id || subtree.some((r) => r.id === parentId))
          throw new FieldInputError('parentId', DICT_MESSAGES.parentInvalid);
      }

      const check = (f: FieldDef, v: unknown) => {
        const err = checkField(f, v);
        if (err) throw new FieldInputError(f.name, err);
      };
      const str = (v: unknown) => String(v).trim();

      // a child's code is its parent's; a dictionary (parent row) names itself and has the key -1
      const rawCode = value('code');
      if (!parent) check(DICT_FIELDS.code, rawCode);
      const dictCode = parent ? parent.code : str(rawCode);
      const rawValue = value('dictValue');
      check(DICT_FIELDS.dictValue, rawValue);
      const rawKey = value('dictKey');
      // a dictionary's key is -1 whatever is sent, but what is sent is still checked
      check(parent ? ENTRY_KEY : DICT_FIELDS.dictKey, rawKey);
      const dictKey = parent ? str(rawKey) : '-1';
      const rawSort = value('sort');
      check(DICT_FIELDS.sort, rawSort);
      const rawSealed = Object.hasOwn(input, 'isSealed') ? input.isSealed : (existing?.isSealed ?? 0);
      check(DICT_FIELDS.isSealed, rawSealed);
      const rawEnglish = value('dictValueEn');
      check(DICT_FIELDS.dictValueEn, rawEnglish);
      const rawRemark = value('remark');
      check(DICT_FIELDS.remark, rawRemark);
      const optionalText = (v: unknown) => (v === undefined || v === null || str(v) === '' ? null : str(v));
      const remark = optionalText(rawRemark);

      const record = {
        parentId,
        code: dictCode,
        dictKey,
        dictValue: str(rawValue),
        // optional: empty means the Chinese value is shown in English too
        dictValueEn: optionalText(rawEnglish),
        sort: Math.trunc(Number(rawSort)),
        isSealed: Number(rawSealed),
        remark,
      };

      // a dictionary's code is unique among dictionaries; an entry's key is unique within its dictionary
      const subtreeIds = subtree.map((r) => r.id);
      if (!parent) {
        const [clash] = await tx
          .select({ id: d.id })
          .from(d)
          .where(and(scope, eq(d.parentId, '0'), eq(d.code, dictCode), ...(id ? [ne(d.id, id)] : [])))
          .limit(1);
        if (clash) throw new FieldInputError('code', DICT_MESSAGES.codeExists);
      }
      const codeChanges = !existing || existing.code !== dictCode;
      const keys = new Set<string>();
      if (parent) keys.add(dictKey);
      // entries that move with this row into another dictionary take their keys along
      if (existing && codeChanges) for (const r of subtree) keys.add(r.dictKey);
      if (keys.size) {
        const [clash] = await tx
          .select({ id: d.id })
          .from(d)
          .where(
            and(
              scope,
              eq(d.code, dictCode),
              ne(d.parentId, '0'),
              inArray(d.dictKey, [...keys]),
              ...(id ? [notInArray(d.id, [id, ...subtreeIds])] : []),
            ),
          )
          .limit(1);
        if (clash) throw new FieldInputError('dictKey', DICT_MESSAGES.keyExists);
      }

      if (!existing) {
        const [row] = await tx
          .insert(d)
          .values({
            ...record,
            ...(opts.tenantScoped ? { tenantId: ctx.tenantId } : {}),
          } as typeof d.$inferInsert)
          .returning(selection);
        return row;
      }
      const [row] = await tx
        .update(d)
        .set(record)
        .where(and(eq(d.id, existing.id), scope))
        .returning(selection);
      if (codeChanges && subtreeIds.length)
        await tx
          .update(d)
          .set({ code: dictCode })
          .where(and(inArray(d.id, subtreeIds), scope));
      return row;
    });
    return ok(req, output(ctx, saved));
  });

  /** Soft delete; a dictionary takes its entries along; a sealed entry is never removed. All or nothing. */
  app.post(`${prefix}/remove`, async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, `${code}_delete`);
    requireWritable(ctx);
    const ids = idsParam(req);
    const own = await managed(ctx);
    const scope = visible(ctx);
    await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const rows = await tx
        .select(selection)
        .from(d)
        .where(and(inArray(d.id, ids), own));
      // an id the caller may not see (or that is gone) removes nothing
      if (rows.length !== ids.length) throw notFound();
      const all = [...rows, ...(await descendants(tx, ids, scope))];
      if (all.some((r) => r.isSealed === 1)) throw sealedError(req);
      await tx
        .update(d)
        .set({ isDeleted: 1 })
        .where(
          and(
            inArray(
              d.id,
              all.map((r) => r.id),
            ),
            scope,
          ),
        );
    });
    return ok(req, true);
  });
}

/** The dictionary tables record no creator: a data scope of own rows or own depts matches none of them. */
const NO_CREATOR = sql`null::bigint` as unknown as PgColumn;

const sealedError = (req: FastifyRequest) =>
  badRequest('fieldMessage', { message: DICT_MESSAGES.sealed[req.lang] });
