import type { FieldDef, ResourceDef } from '@smart/contracts';
import {
  checkField,
  checkRecord,
  DEFAULT_TENANT_ID,
  fieldKind,
  isRowKey,
  listValue,
  parseRecord,
  relatedFields,
  routePrefix,
  uniqueSets,
  uniqueTaken,
} from '@smart/contracts';
import { and, count, desc, eq, getTableName, inArray, ne, not, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireAnyPermission, requirePermission } from '../access/permissions';
import { rowConstraint } from '../access/scope';
import { pickedTenant } from '../access/tenant-pick';
import { type RequestContext, requireCtx } from '../auth/context';
import { arrayRowsOf, type Db } from '../db';
import { tablesRead, tableVersion } from '../db/changes';
import { formatDateTime } from '../format';
import { ok } from '../http/envelope';
import { badRequest, FieldInputError, forbidden, invalidField, notFound } from '../http/errors';
import type { Lang } from '../http/messages';
import { toPage } from '../paging';
import { buildTree } from '../tree';
import { answerList } from './answers';
import { arrayOutput, NO_LABELS } from './array-output';
import type { MountedResource, ResourceHooks, Row } from './binding';
import { attachChildren, checkChildren, readChildren, writeChildren } from './children';
import { coalescedCreates } from './coalesce';
import { cachedCount, countKey, forgetCounts } from './count-cache';
import { attachDictNames, checkDictKeys, DICT_TABLE, dictLabelsOf, dictNameFields } from './dict-names';
import { mountEndpoints } from './endpoints';
import { mountExcelRoutes } from './excel';
import { columnsOf } from './model';
import { parseListQuery } from './query';
import { attachRefLabels, checkRefs, mountedByKey, mountSelectRoute, refFields } from './refs';
import { idParam, idsParam, pathId } from './request-ids';
import { transitionEndpoint } from './transitions';
import { descendantIds, placeInTree } from './tree-walk';
import { insertRows, liveRows, removeRows, transaction, updateRow } from './write';

/**
 * The resource engine: turns a definition (packages/contracts) and its table into the spec's routes
 * (list/page, detail, submit, remove), with validation, soft delete, base columns, whitelisted filters and
 * sorting, permission codes, tenant isolation and data scope on every read and write, by-id included.
 * A definition may key its rows by a field of its own (`idField`), delete instead of marking removed
 * (`softDelete: false`) and keep no base columns (`baseColumns: false`): see `columnsOf`.
 */

type TreeRow = { id: string; parentId: string } & Record<string, unknown>;
/** a tree is answered whole; past this many nodes a screen must page instead */
const TREE_LIMIT = 5000;

export function mountResource(
  app: FastifyInstance,
  db: Db,
  def: ResourceDef,
  table: PgTable,
  hooks: ResourceHooks = {},
): MountedResource {
  const cols = columnsOf(def, table);
  const hasBase = def.baseColumns !== false;
  /** whether a text names a row: an id, or the key field's value (checked by its rule) */
  const isKey = (v: string) => isRowKey(def, v);
  const beside = hooks.beside ?? {};
  for (const f of def.fields) {
    if (!cols[f.name] && !beside[f.name])
      throw new Error(`resource ${def.key}: table has no column for field ${f.name}`);
  }
  if (def.tenant && !cols.tenantId) throw new Error(`resource ${def.key}: tenant resource without tenant_id`);
  const visible = def.fields.filter((f) => !f.secret);
  // a secret with a stand-in (`secretShown`) is answered as that, never as what is stored
  const shownSecrets = def.fields.filter((f) => f.secret && f.secretShown !== undefined);
  const toRow: ResourceHooks['toRow'] = shownSecrets.length
    ? (row) => {
        for (const f of shownSecrets) row[f.name] = f.secretShown;
        return hooks.toRow ? hooks.toRow(row) : row;
      }
    : hooks.toRow;
  /** values answered beside the fields (labels), read by the binding's SQL */
  const besideExtra = Object.keys(beside).filter((k) => !def.fields.some((f) => f.name === k));
  const byField = new Map<string, { column: PgColumn; field?: FieldDef }>();
  for (const f of visible) if (cols[f.name]) byField.set(f.name, { column: cols[f.name], field: f });
  for (const base of [
    'id',
    ...(hasBase ? ['createTime', 'updateTime', 'status', 'createUser', 'createDept'] : []),
  ])
    if (cols[base]) byField.set(base, { column: cols[base] });
  const scopeFields = Object.fromEntries(
    visible.filter((f) => cols[f.name]).map((f) => [f.name, cols[f.name]]),
  );
  const base = routePrefix(def);
  const code = def.permission;

  const changed = () => {
    forgetCounts(def.key);
    hooks.onChanged?.();
  };
  const refs = refFields(def);
  const dictNames = dictNameFields(def);
  /** the tables whose labels the answered rows carry (read when answering, mounted by then) */
  const refTables = () => [
    ...refs.map((f) => {
      const target = mountedByKey.get(f.ref as string);
      return target ? getTableName(target.table) : '*';
    }),
    ...(dictNames.length ? [DICT_TABLE] : []),
    // the children answered with each row, and what their answers carry
    ...(def.children ?? []).flatMap((c) => {
      const child = mountedByKey.get(c.resource.key);
      return child ? [getTableName(child.table), ...child.labelTables()] : ['*'];
    }),
  ];
  /** rows as answered, with their children (a definition with `children`) */
  const withChildren = (ctx: RequestContext, rows: Row[], lang: Lang) =>
    def.children ? attachChildren(ctx, db, def, rows, lang) : rows;
  /**
   * a list's rows with their personal numbers masked (ID numbers, phones: the kind's `masked`): a list shows
   * who a row is, the detail (查看, 修改) and an export (its own `_export` code) the whole number
   */
  const maskedFields = visible.filter((f) => fieldKind(f).masked);
  const masked = (rows: Row[]): Row[] => {
    if (!maskedFields.length) return rows;
    for (const row of rows) {
      for (const f of maskedFields) if (f.name in row) row[f.name] = listValue(f, row[f.name]);
      if (Array.isArray(row.children)) masked(row.children as Row[]);
    }
    return rows;
  };

  const constraintCols = {
    isDeleted: def.softDelete === false ? undefined : cols.isDeleted,
    tenantId: def.tenant ? cols.tenantId : undefined,
    readByEveryTenant: def.readByEveryTenant === true,
    createUser: hasBase ? cols.createUser : undefined,
    createDept: hasBase ? cols.createDept : undefined,
    fields: scopeFields,
  };
  /** the field whose referenced row decides a row's reach (`scopeVia`), and that row's resource */
  const scopeVia = def.scopeVia
    ? def.fields.find((f) => f.name === def.scopeVia && f.type === 'ref')
    : undefined;
  if (def.scopeVia && (!scopeVia?.ref || !cols[def.scopeVia]))
    throw new Error(`resource ${def.key}: scopeVia ${def.scopeVia} is not a ref field with a column`);
  const constraint = async (ctx: RequestContext, via: Db = db): Promise<SQL> => {
    const own = await rowConstraint(via, ctx, def.key, constraintCols);
    if (!scopeVia) return own;
    const parent = mountedByKey.get(scopeVia.ref as string);
    if (!parent) throw new Error(`resource ${def.key}: ${scopeVia.ref} is not mounted`);
    const reach = await parent.constraint(ctx, via);
    return and(
      own,
      sql`${cols[scopeVia.name]} in (select ${parent.cols.id} from ${parent.table} where ${reach})`,
    ) as SQL;
  };
  /** the tenant's live rows, without the data scope (pickers, a whole subtree) */
  const tenantConstraint = (ctx: RequestContext): Promise<SQL> =>
    rowConstraint(db, ctx, undefined, constraintCols);
  /**
   * platform rows (tenant false) are changed by the platform tenant only: another tenant's create is a 403,
   * and so are its update and removal of rows every tenant reads (`readByEveryTenant`; rows it cannot see
   * at all are "not found" instead)
   */
  const refuseForeignWrite = (ctx: RequestContext, mode: 'create' | 'update' | 'remove') => {
    if (def.tenant || ctx.tenantId === DEFAULT_TENANT_ID) return;
    if (mode === 'create' || def.readByEveryTenant) throw forbidden();
  };
  const treeCols = { table, id: cols.id, parentId: cols.parentId, ancestors: cols.ancestors };

  const output = (row: Record<string, unknown>) => {
    const out: Record<string, unknown> = { id: row.id };
    if (def.tenant) out.tenantId = row.tenantId;
    for (const f of visible) {
      const v = typeof row[f.name] === 'boolean' ? Number(row[f.name]) : row[f.name];
      out[f.name] =
        v instanceof Date ? (f.type === 'date' ? formatDateTime(v).slice(0, 10) : formatDateTime(v)) : v;
    }
    for (const k of besideExtra) out[k] = row[k];
    if (hasBase) {
      out.status = row.status;
      out.createTime = formatDateTime(row.createTime as Date);
      out.updateTime = formatDateTime(row.updateTime as Date);
    }
    return toRow ? toRow(out) : out;
  };
  /** rows as answered, with the labels of what their references name and of their dictionary values */
  const answer = async (ctx: RequestContext, rows: Record<string, unknown>[], lang: Lang = 'zh') =>
    attachDictNames(
      db,
      dictNames,
      lang,
      refs.length ? await attachRefLabels(db, ctx, def, rows.map(output), lang) : rows.map(output),
    );

  const selection: Record<string, PgColumn | SQL> = {
    ...Object.fromEntries(
      [
        'id',
        'tenantId',
        ...(hasBase ? ['status', 'createTime', 'updateTime'] : []),
        ...visible.map((f) => f.name),
      ]
        .filter((k) => cols[k])
        .map((k) => [k, cols[k]]),
    ),
    ...beside,
  };
  /**
   * `output` of a row as the driver answers it (an array in the selection's order), with the columns' own
   * decoders, and without a Date for a time stamp that is only formatted: what `answer(ctx, rows)` answers
   * for the same rows read through Drizzle, at a fraction of the cost (a list page maps every row).
   */
  /** what a list (and an export) selects: every field but those the detail alone answers */
  const listSelection = Object.fromEntries(
    Object.entries(selection).filter(([k]) => !def.fields.some((f) => f.name === k && f.detailOnly)),
  );
  const fromArray = arrayOutput(
    def,
    visible.filter((f) => !f.detailOnly),
    besideExtra,
    listSelection,
    dictNames,
    toRow,
  );
  /** list rows as answered (references and dictionary values labelled) from the driver's arrays */
  const answerArrays = async (ctx: RequestContext, rows: unknown[][], lang: Lang) => {
    const tz = process.env.TZ || 'Asia/Shanghai';
    const labels = dictNames.length && rows.length ? await dictLabelsOf(db, dictNames, lang) : NO_LABELS;
    const out = rows.map((r) => fromArray(r, tz, labels));
    return refs.length ? attachRefLabels(db, ctx, def, out, lang) : out;
  };
  const arrayRows = arrayRowsOf(db);
  const defaultOrder =
    hooks.defaultOrder ??
    (def.defaultSort
      ? [
          def.defaultSort.desc ? desc(cols[def.defaultSort.field]) : cols[def.defaultSort.field],
          desc(cols.id),
        ]
      : cols.createTime
        ? [desc(cols.createTime), desc(cols.id)]
        : [desc(cols.id)]);
  /** a GET endpoint of the binding at a generic view's path replaces that view */
  const ownGet = new Set((hooks.endpoints ?? []).filter((e) => e.method === 'GET').map((e) => e.path));
  const extraKeys = new Set(hooks.extraKeys ?? []);

  const list = async (req: FastifyRequest, reply: FastifyReply) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, code);
    const query = req.query as Record<string, string>;
    return answerList(req, reply, db, ctx, async () => {
      const q = parseListQuery(def, { byField }, query, extraKeys);
      const extra = await hooks.extraWhere?.(ctx, query);
      const where = and(await constraint(ctx), ...q.where, ...(extra ? [extra] : []));
      const orderBy = q.orderBy.length ? q.orderBy : defaultOrder;
      // built once: the answer is made again from the same statement while its access decisions hold; the
      // rows come as arrays and are mapped straight into the answer (Drizzle's prepared query where the
      // database handle has no array runner)
      const read = (limit: number, offset: number) => {
        const built = db
          .select(listSelection)
          .from(table)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset);
        if (arrayRows) {
          const { sql: text, params } = built.toSQL();
          return {
            text,
            rows: () =>
              arrayRows(text, params)
                .then((r) => answerArrays(ctx, r, req.lang))
                .then((r) => withChildren(ctx, masked(r as Row[]), req.lang)),
          };
        }
        const prepared = built.prepare('');
        return {
          text: prepared.getQuery().sql,
          rows: async () =>
            withChildren(
              ctx,
              masked(await answer(ctx, (await prepared.execute()) as Record<string, unknown>[], req.lang)),
              req.lang,
            ),
        };
      };
      if (def.tree) {
        // a tree answers every matching node (children under their parents; orphans of a filter as roots)
        const nodes = read(TREE_LIMIT, 0);
        return {
          reads: [nodes.text],
          alsoReads: refTables(),
          data: async () => buildTree((await nodes.rows()) as TreeRow[]),
        };
      }
      const rows = read(q.size, (q.current - 1) * q.size);
      const total = db.select({ total: count() }).from(table).where(where);
      const totalKey = countKey(def.key, ctx, query);
      const totalText = total.toSQL().sql;
      const totalVersion = tableVersion(db, tablesRead(totalText));
      return {
        reads: [rows.text, totalText],
        alsoReads: refTables(),
        data: async () => {
          const [records, n] = await Promise.all([
            rows.rows(),
            cachedCount(totalKey, () => total.then(([r]) => Number(r.total)), totalVersion),
          ]);
          return toPage(records, n, q.current, q.size);
        },
      };
    });
  };
  for (const name of [def.listPath ?? 'list', ...(hooks.listAliases ?? [])]) app.get(`${base}/${name}`, list);

  if (def.tree && !ownGet.has('tree')) {
    /** The picker tree of a tree resource (parent selects): every signed-in caller of the tenant may read it. */
    app.get(`${base}/tree`, async (req) => {
      // `tenantId` (spec §7): the platform administrator picks another tenant's rows (tenant-pick.ts)
      const { tenantId, ...query } = req.query as Record<string, unknown>;
      const ctx = def.tenant ? await pickedTenant(db, requireCtx(req), tenantId) : requireCtx(req);
      const titleField = def.fields[0].name;
      // the picker may narrow by searchable fields (e.g. menus only: ?category=1); rows named in the caller's language
      const q = parseListQuery(def, { byField }, query);
      const title =
        req.lang === 'en' && cols.nameEn
          ? sql`coalesce(${cols.nameEn}, ${cols[titleField]})`
          : cols[titleField];
      const rows = await db
        .select({ id: cols.id, parentId: cols.parentId, title })
        .from(table)
        .where(and(await constraint(ctx), ...q.where))
        .orderBy(...defaultOrder)
        .limit(TREE_LIMIT);
      return ok(
        req,
        buildTree(rows.map((r) => ({ ...(r as TreeRow), key: r.id as string, value: r.id as string }))),
      );
    });
  }

  app.get(`${base}/detail`, async (req) => {
    const ctx = requireCtx(req);
    // the view dialog and the edit dialog both read the detail
    await requireAnyPermission(
      db,
      req,
      def.view === false ? [`${code}_edit`] : [`${code}_view`, `${code}_edit`],
    );
    // a keyed row is named by its id or by its key field (`detail?code=`)
    const query = req.query as Record<string, unknown>;
    const name = def.idField && query.id === undefined ? def.idField : 'id';
    const id = idParam(req, name, isKey);
    const [row] = await db
      .select(selection)
      .from(table)
      .where(and(eq(cols.id, id), await constraint(ctx)))
      .limit(1);
    if (!row) throw notFound();
    return ok(req, (await withChildren(ctx, await answer(ctx, [row], req.lang), req.lang))[0]);
  });

  /** rows as answered, read again after their write (their `beside` values are written by the hooks) */
  const readBack = async (ctx: RequestContext, rows: Row[], lang: Lang) => {
    if (besideExtra.length || Object.keys(beside).length) {
      const again = new Map(
        (
          await db
            .select(selection)
            .from(table)
            .where(
              inArray(
                cols.id,
                rows.map((r) => r.id as string),
              ),
            )
        ).map((r) => [String(r.id), r as Row]),
      );
      rows = rows.map((r) => again.get(String(r.id)) ?? r);
    }
    return withChildren(ctx, await answer(ctx, rows, lang), lang);
  };

  /**
   * The checks a validated record passes before it is written, whoever writes it (a submit, a parent's
   * children): the binding's beforeWrite, its references, its unique keys among live rows (`except`: rows
   * left out of the clash, a parent's own children that the write replaces).
   */
  const check: MountedResource['check'] = async (ctx, record, mode, id, original, opts = {}) => {
    await hooks.beforeWrite?.(ctx, record, mode, id, original, 'submit');
    if (refs.length && opts.refs !== false) await checkRefs(db, ctx, def, record);
    await checkDictKeys(db, def, record);
    for (const set of uniqueSets(def)) {
      // an update that sends one field of a key is checked with the others as stored
      if (original && set.every((f) => record[f] === undefined)) continue;
      const values = set.map((f) => (record[f] !== undefined ? record[f] : original?.[f]));
      if (values.some((v) => v === undefined || v === null)) continue;
      const clash = [...set.map((f, i) => eq(cols[f], values[i])), ...liveRows(mounted)];
      if (def.tenant) clash.push(eq(cols.tenantId, ctx.tenantId));
      if (id) clash.push(ne(cols.id, id));
      if (opts.except) clash.push(opts.except);
      const [hit] = await db
        .select({ id: cols.id })
        .from(table)
        .where(and(...clash))
        .limit(1);
      if (hit) throw new FieldInputError(set[set.length - 1], uniqueTaken(def, set));
    }
  };

  /**
   * The row a keyed submit without `id` names by its key field (a region's `code`), when the caller sees one:
   * that row is edited, otherwise one is added. Only a caller who may add or edit asks; a missing key is the
   * definition's required field.
   */
  const namedRow = async (req: FastifyRequest, ctx: RequestContext, body: Record<string, unknown>) => {
    const field = def.fields.find((f) => f.name === def.idField)!;
    const raw = body[field.name];
    if (raw === undefined || raw === null || raw === '') return undefined;
    await requireAnyPermission(db, req, [`${code}_add`, `${code}_edit`]);
    const err = checkField(field, raw);
    if (err) throw new FieldInputError(field.name, err);
    const key = String(raw).trim();
    const [row] = await db
      .select({ id: cols.id })
      .from(table)
      .where(and(eq(cols.id, key), await constraint(ctx)))
      .limit(1);
    return row ? key : undefined;
  };

  /** adds of one caller that come at the same moment, written together (`coalesceCreates`) */
  const coalesced =
    hooks.coalesceCreates && !def.children?.length && !def.tree
      ? coalescedCreates({
          db,
          mounted: () => mounted,
          def,
          hooks,
          check,
          readBack,
          refsChecked: refs.length > 0,
        })
      : undefined;

  /** add (no id) or edit (an id): `update` only edits (a family client's `<path>/update`) */
  const submit = async (req: FastifyRequest, reply: FastifyReply, only?: 'update') => {
    const ctx = requireCtx(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest();
    let id = body.id === undefined || body.id === null || body.id === '' ? undefined : String(body.id);
    if (id !== undefined && !isKey(id)) throw badRequest('fieldInvalid', { field: 'id' });
    if (!id && only === 'update') throw badRequest('fieldInvalid', { field: 'id' });
    // a log the server writes (def.readOnly) is never written through the API
    if (def.readOnly) throw forbidden();
    // a ledger's rows are added, never edited: a correction is a new row
    if ((def.appendOnly || def.editable === false) && id) throw forbidden();
    if (!id && def.idField) id = await namedRow(req, ctx, body);
    const mode = id ? 'update' : 'create';
    await requirePermission(db, req, `${code}_${mode === 'create' ? 'add' : 'edit'}`);
    refuseForeignWrite(ctx, mode);
    const scope = await constraint(ctx);
    // a row the caller cannot see is "not found" before anything is said about the body; the row as it is
    // checks an update that sends one side of a date range, and is what the hooks see as the original
    let original: Row | undefined;
    if (id) {
      const [row] = await db
        .select(selection)
        .from(table)
        .where(and(eq(cols.id, id), scope))
        .limit(1);
      if (!row) throw notFound();
      original = row as Row;
    }
    await hooks.beforeValidate?.(ctx, body, mode, original, scope);
    const parsed = parseRecord(def, body, mode);
    if (parsed.error) throw new FieldInputError(parsed.error.field, parsed.error.message);
    const record = parsed.record;
    // a key never changes once saved: an edit writes the other fields
    if (def.idField && mode === 'update') delete record[def.idField];
    if (original) {
      // a rule between two fields (notBefore, requiredWhen, notAbove) an update sends one side of is
      // judged with the other side as stored
      if (
        def.fields.some((f) =>
          relatedFields(f).some((other) => Object.hasOwn(record, f.name) !== Object.hasOwn(record, other)),
        )
      ) {
        const stored = (await answer(ctx, [original]))[0] as Row;
        const err = checkRecord(def, { ...stored, ...record });
        if (err) throw new FieldInputError(err.field, err.message);
      }
    }
    const children = readChildren(def, body);
    if (mode === 'create' && coalesced && !children.size) {
      // together only with the same caller as the same person: tenant, user, department and roles (what the
      // constraint and the stamps are made of), since the batch is written as its first
      const caller = [ctx.tenantId, ctx.userId, ctx.deptId, [...ctx.roleIds].sort().join(',')].join('|');
      const { answered, extra } = await coalesced(caller, {
        ctx,
        record,
        lang: req.lang,
      });
      if (!extra) return ok(req, answered);
      return reply.header('cache-control', 'no-store').send(ok(req, { ...answered, ...extra }));
    }
    await check(ctx, record, mode, id, original);
    if (children.size) await checkChildren(ctx, db, children, id);
    if (def.tree && record.parentId !== undefined)
      await placeInTree(db, treeCols, record, id, scope, () => tenantConstraint(ctx));
    if (mode === 'create') {
      const [{ row: created, extra }] = await transaction(db, async (tx) => {
        const rows = await insertRows(mounted, ctx, tx, [record], { answer: true });
        if (children.size) await writeChildren(ctx, tx, children, String(rows[0].row.id));
        return rows;
      });
      await hooks.afterCommit?.(ctx, { mode, ids: [created.id as string], records: [record] });
      const [answered] = await readBack(ctx, [created], req.lang);
      if (!extra) return ok(req, answered);
      return reply.header('cache-control', 'no-store').send(ok(req, { ...answered, ...extra }));
    }
    const updated =
      hooks.afterChange || hooks.beforeCreate || children.size
        ? await transaction(db, async (tx) => {
            const row = await updateRow(mounted, ctx, tx, id!, record, scope, original);
            if (row && children.size) await writeChildren(ctx, tx, children, id!);
            return row;
          })
        : await updateRow(mounted, ctx, db, id!, record, scope, original);
    if (!updated) throw notFound();
    await hooks.afterCommit?.(ctx, { mode, ids: [id!], records: [record] });
    return ok(req, (await readBack(ctx, [updated], req.lang))[0]);
  };
  app.post(`${base}/submit`, (req, reply) => submit(req, reply));
  if (hooks.updatePath) app.post(`${base}/${hooks.updatePath}`, (req, reply) => submit(req, reply, 'update'));
  for (const alias of hooks.submitAliases ?? [])
    app.post(`${base}/${alias}`, (req, reply) => submit(req, reply));

  /**
   * Removes rows (soft delete), all or nothing, within the caller's constraint: `remove?ids=` and every
   * removal route of the binding (`removeRoutes`: an id in the path, another ids key, a reason kept).
   */
  const removeIds = async (ctx: RequestContext, ids: string[], set?: Record<string, unknown>) => {
    // rows the server alone writes (readOnly) are removed by the server's own endpoints only (`remover`
    // refuses every removal route of the API); a ledger's (appendOnly) by nobody
    if (def.appendOnly) throw forbidden();
    refuseForeignWrite(ctx, 'remove');
    const scope = await constraint(ctx);
    let all = ids;
    await transaction(db, async (tx) => {
      // rows the caller cannot see are "not found", before anything else is said about them
      const visible = await tx
        .select({ id: cols.id })
        .from(table)
        .where(and(inArray(cols.id, ids), scope));
      if (visible.length !== ids.length) throw notFound();
      // a subtree goes with its node (the tenant's nodes below it, whatever the caller's scope)
      const below =
        def.tree && hooks.removeSubtree
          ? await descendantIds(tx as unknown as Db, treeCols, ids, await tenantConstraint(ctx))
          : [];
      all = [...ids, ...below];
      if (def.tree && !hooks.removeSubtree) {
        const [child] = await tx
          .select({ id: cols.id })
          .from(table)
          .where(and(inArray(cols.parentId, ids), ...liveRows(mounted), not(inArray(cols.id, ids))))
          .limit(1);
        if (child) throw badRequest('hasChildren');
      }
      const done = await removeRows(mounted, ctx, tx as unknown as Db, ids, scope, {
        set,
        below,
        belowScope: below.length ? await tenantConstraint(ctx) : undefined,
      });
      // all or nothing: an id the caller may not see (or that is gone) removes nothing
      if (!done) throw notFound();
    });
    await hooks.afterCommit?.(ctx, { mode: 'remove', ids: all });
  };
  /** the caller of a removal route, once it holds the resource's delete code */
  const remover = async (req: FastifyRequest) => {
    const ctx = requireCtx(req);
    if (def.readOnly || def.appendOnly) throw forbidden();
    await requirePermission(db, req, `${code}_delete`);
    return ctx;
  };
  // a removal route of the binding at `remove` replaces this one (the family's region: `remove?id=`)
  if (!(hooks.removeRoutes ?? []).some((r) => r.method === 'POST' && r.path === 'remove'))
    app.post(`${base}/remove`, async (req) => {
      const ctx = requireCtx(req);
      const ids = idsParam(req, 'ids', isKey);
      await remover(req);
      await removeIds(ctx, ids);
      return ok(req, true);
    });
  for (const route of hooks.removeRoutes ?? []) {
    const byPath = route.path.endsWith('/{id}');
    const url = byPath ? `${base}/${route.path.slice(0, -'/{id}'.length)}/:id` : `${base}/${route.path}`;
    const remarkField = route.remark && def.fields.find((f) => f.name === route.remark!.field);
    if (route.remark && !remarkField)
      throw new Error(
        `resource ${def.key}: removal route ${route.path} writes no field ${route.remark.field}`,
      );
    if (route.remark && def.softDelete === false)
      throw new Error(`resource ${def.key}: removal route ${route.path} keeps a reason on rows it deletes`);
    app.route({
      method: route.method,
      url,
      handler: async (req) => {
        // who may remove is said before anything about the query
        const ctx = await remover(req);
        const ids = byPath
          ? [pathId(req, isKey)]
          : route.idsParam === 'id'
            ? [idParam(req, 'id', isKey)]
            : idsParam(req, route.idsParam ?? 'ids', isKey);
        const query = req.query as Record<string, unknown>;
        const known = new Set([
          ...(byPath ? [] : [route.idsParam ?? 'ids']),
          ...(route.remark ? [route.remark.param] : []),
        ]);
        for (const k of Object.keys(query)) if (!known.has(k)) throw invalidField(k, 'unknownFilter');
        let set: Record<string, unknown> | undefined;
        if (route.remark && remarkField) {
          const raw = query[route.remark.param];
          const reason = typeof raw === 'string' ? raw.trim() : '';
          const err = checkField({ ...remarkField, required: route.remark.required === true }, reason);
          if (err) throw new FieldInputError(route.remark.param, err);
          set = { [remarkField.name]: reason || null };
        }
        await removeIds(ctx, ids, set);
        return ok(req, true);
      },
    });
  }

  const mounted: MountedResource = {
    def,
    table,
    constraint,
    tenantConstraint,
    db,
    hooks,
    cols,
    selection,
    listSelection,
    output: answer,
    async readRows(ctx, where, orderBy, limit, lang) {
      const built = db
        .select(listSelection)
        .from(table)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit);
      if (!arrayRows) return answer(ctx, (await built) as Row[], lang);
      const { sql: text, params } = built.toSQL();
      return (await answerArrays(ctx, await arrayRows(text, params), lang)) as Row[];
    },
    check,
    defaultOrder,
    labelTables: refTables,
    remove: removeIds,
    async listWhere(ctx, query) {
      const q = parseListQuery(def, { byField }, query, extraKeys);
      const extra = await hooks.extraWhere?.(ctx, query);
      return and(await constraint(ctx), ...q.where, ...(extra ? [extra] : [])) as SQL;
    },
    async patch(ctx, tx, id, set, scope) {
      const where = scope ?? (await constraint(ctx, tx));
      const [original] = (await tx
        .select(selection)
        .from(table)
        .where(and(eq(cols.id, id), where))
        .limit(1)
        .for('update')) as Row[];
      if (!original) throw notFound();
      const record = typeof set === 'function' ? await set(original) : { ...set };
      const row = await updateRow(mounted, ctx, tx, id, record, where, original);
      if (!row) throw notFound();
      return row;
    },
    changed,
  };
  mountedByKey.set(def.key, mounted);
  if (!ownGet.has('select')) mountSelectRoute(app, mounted);
  if (def.excel) mountExcelRoutes(app, mounted);
  if (hooks.endpoints) mountEndpoints(app, mounted, hooks.endpoints);
  if (hooks.transitions) mountEndpoints(app, mounted, hooks.transitions.map(transitionEndpoint));
  return mounted;
}
