import type { ResourceDef } from '@smart/contracts';
import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { RequestContext } from '../auth/context';
import type { Db } from '../db';
import type { Lang } from '../http/messages';
import type { ResourceEndpoint } from './endpoints';
import type { Transition } from './transitions';

/**
 * What binds a definition to its table and its code: the hooks a module gives the engine, and the mounted
 * resource the engine's parts (routes, references, Excel, the write path) share. Types only, so the parts
 * import it without importing each other.
 */

/** A row as selected (`MountedResource.selection`): property = field name. */
export type Row = Record<string, unknown>;

/** who writes a record: the form's submit or an Excel import (a form's password is required, a file has none) */
export type WriteVia = 'submit' | 'import';

/** one row a write created or changed */
export interface Change {
  mode: 'create' | 'update';
  row: Row;
  /** the checked record that was written (field name → value as sent, `beside` fields included) */
  record: Record<string, unknown>;
  original?: Row;
}

export interface ResourceHooks {
  /**
   * adjusts the submit's body before it is checked against the definition (Payload's beforeValidate): what
   * a row's place decides and a field cannot say (an entry's code is its parent's; a default the form may
   * leave out); on update, `original` is the row as it is (already found within the caller's scope);
   * `scope` is the caller's constraint on the resource's rows (a parent is looked up within it)
   */
  beforeValidate?: (
    ctx: RequestContext,
    body: Record<string, unknown>,
    mode: 'create' | 'update',
    original: Row | undefined,
    scope: SQL,
  ) => Promise<void> | void;
  /**
   * adjusts a validated record before it is written (hash a secret, check a reference…): inside the
   * submit's checks, before its transaction; on update, `id` and the row as it was (`original`)
   */
  beforeWrite?: (
    ctx: RequestContext,
    record: Record<string, unknown>,
    mode: 'create' | 'update',
    id?: string,
    original?: Row,
    via?: WriteVia,
  ) => Promise<void> | void;
  /** turns a row into what the API answers, after the engine's formatting (after read) */
  toRow?: (row: Row) => Row;
  /** extra query keys the list accepts (handled by `extraWhere`) */
  extraKeys?: string[];
  /** a code-level row filter of this binding's lists (beside the definition's whitelisted filters) */
  extraWhere?: (
    ctx: RequestContext,
    query: Record<string, string>,
  ) => SQL | undefined | Promise<SQL | undefined>;
  /**
   * Values answered with each row that are not the table's own columns, each read by its SQL (a subquery
   * over `blade_user.id`…): a field kept in another table (a user's roles; written by `afterChange` from the
   * change's record, never into the table), or a label beside the fields. Not filtered or sorted on.
   */
  beside?: Record<string, SQL | PgColumn>;
  /** runs in the write's transaction before rows are created, once for all of them (a quota counts them) */
  beforeCreate?: (ctx: RequestContext, records: Record<string, unknown>[], tx: Db) => Promise<void> | void;
  /**
   * runs in the write's transaction after a row is created (e.g. a tenant's administrator); what it
   * returns is added to the submit's answer (e.g. an initial password shown once), never stored
   */
  afterCreate?: (ctx: RequestContext, row: Row, tx: Db) => Promise<Record<string, unknown> | undefined>;
  /**
   * runs in the write's transaction after created or changed rows, whichever path wrote them (submit,
   * Excel import, a bulk action), once per statement (an import's 500 rows at once): each row as written,
   * the record that wrote it (`beside` fields included) and, on update, the row as it was
   */
  afterChange?: (ctx: RequestContext, changes: Change[], tx: Db) => Promise<void> | void;
  /**
   * a tree's removal takes every node below the removed ones along (all of the tenant's live nodes below,
   * whatever the caller's data scope), instead of refusing a node that has children; beforeRemove and
   * afterDelete then see every id removed
   */
  removeSubtree?: boolean;
  /** the list's (and the generic tree picker's) order when none is asked for, instead of the definition's */
  defaultOrder?: SQL[];
  /** runs in the removal's transaction before rows are removed; throw to refuse */
  beforeRemove?: (ctx: RequestContext, ids: string[], tx: Db) => Promise<void>;
  /** runs in the removal's transaction after the rows are removed */
  afterDelete?: (ctx: RequestContext, ids: string[], tx: Db) => Promise<void> | void;
  /** after any successful write or removal, once committed (drop caches that remember these rows) */
  onChanged?: () => void;
  /**
   * after a write or removal is committed, with the rows' ids and records: what must not happen before
   * others can read the change (tell every server that a user's sessions ended)
   */
  afterCommit?: (
    ctx: RequestContext,
    done: { mode: 'create' | 'update' | 'remove'; ids: string[]; records?: Record<string, unknown>[] },
  ) => Promise<void> | void;
  /** more names the list answers at (a family client's `user/list` for `user/page`) */
  listAliases?: string[];
  /** a name for a submit that only edits (a family client's `user/update`): no id is a 400 */
  updatePath?: string;
  /**
   * more names the submit answers at, POST below the resource's path (a family client's `upsert`): add
   * without an id, edit with one — the same code, codes (`_add` / `_edit`) and rules as `submit`
   */
  submitAliases?: string[];
  /**
   * adds that come at the same moment from one user are written together (`coalescing`): their references
   * checked at once, one transaction of the write path with all their records (the hooks see them as one
   * batch: `beforeCreate` must handle several), their answers read at once. A batch the write refuses is
   * written again one by one, so one request's refusal is never another's. For a hot resource whose rows
   * are added by many at once (the mall's exchanges); a definition with children is never coalesced.
   */
  coalesceCreates?: boolean;
  /**
   * more removal routes, each the same code as `remove` (the `_delete` code, the caller's row constraint,
   * all or nothing, the hooks): `delete/{id}`, `delete?ids=`, `delete/remark?id=&remark=` (RemoveRoute);
   * one at `remove` itself (POST) replaces the engine's `remove?ids=` (the spec's region: `remove?id=`)
   */
  removeRoutes?: RemoveRoute[];
  /**
   * views beyond the list, mounted under the resource's path with its permission and row constraint; a GET
   * one at `tree` or `select` replaces the engine's generic picker there
   */
  endpoints?: ResourceEndpoint[];
  /** a row's changes of state, each an endpoint of its own (`transition` in transitions.ts) */
  transitions?: Transition[];
}

/**
 * A removal route beside `remove` (POST `remove?ids=`), declared by a binding: the family's `delete/{id}`,
 * `del/{id}`, `delete?ids=`, or a removal that keeps why (`delete/remark?id=&remark=`).
 */
export interface RemoveRoute {
  method: 'GET' | 'POST';
  /**
   * below the resource's path; a last segment `{id}` takes the one id from the path (`delete/{id}`),
   * otherwise the ids come from the query key `ids`
   */
  path: string;
  /** the query key holding the ids without `{id}` (comma-joined; default `ids`; `id` for one) */
  idsParam?: string;
  /**
   * a query key whose text is written into a field of the removed rows (the field's own rules apply:
   * its length; `required`: an empty reason is a 400 naming the key)
   */
  remark?: { param: string; field: string; required?: boolean };
}

export interface MountedResource {
  def: ResourceDef;
  table: PgTable;
  /**
   * the constraint every read and write of this caller adds: tenant, not deleted, data scope; inside a
   * transaction pass it (`via`): the grants it may read must not wait for the transaction's connection
   */
  constraint(ctx: RequestContext, via?: Db): Promise<SQL>;
  /**
   * the caller's tenant's live rows, without the data scope: what pickers read, and what a whole tree
   * (a removed node's subtree, a clash anywhere in it) is checked against
   */
  tenantConstraint(ctx: RequestContext): Promise<SQL>;
  db: Db;
  hooks: ResourceHooks;
  /** columns by property (= field) name */
  cols: Record<string, PgColumn>;
  /** what a list or detail selects, and how a selected row is answered (references labelled) */
  selection: Record<string, PgColumn | SQL>;
  /** what a list or an export selects: the selection without the fields the detail alone answers */
  listSelection: Record<string, PgColumn | SQL>;
  /** rows as answered: references' labels, and dictionary labels (`<field>Name`) in `lang` (default zh) */
  output(ctx: RequestContext, rows: Row[], lang?: Lang): Promise<Row[]>;
  /**
   * up to `limit` rows of `listSelection` within `where`, in `orderBy`, answered as `output` answers them
   * (read as arrays and mapped straight into the answer where the database handle can, as a list page is):
   * what an export reads, batch by batch
   */
  readRows(
    ctx: RequestContext,
    where: SQL,
    orderBy: (SQL | PgColumn)[],
    limit: number,
    lang: Lang,
  ): Promise<Row[]>;
  /**
   * the checks a validated record passes before it is written (the binding's beforeWrite, references,
   * unique keys; `except`: live rows a clash does not count, a parent's own children its write replaces;
   * `refs: false`: the references are checked by the caller, for a batch at once)
   */
  check(
    ctx: RequestContext,
    record: Record<string, unknown>,
    mode: 'create' | 'update',
    id?: string,
    original?: Row,
    opts?: { except?: SQL; refs?: false },
  ): Promise<void>;
  /** the list's order when none is asked for */
  defaultOrder: (SQL | PgColumn)[];
  /** the tables an answered row's labels and children come from (what a remembered list depends on) */
  labelTables(): string[];
  /** the list's WHERE for a query string (filters whitelisted, constraint added); a 400 for anything else */
  listWhere(ctx: RequestContext, query: Record<string, string>): Promise<SQL>;
  /**
   * removes rows as `remove` does (all or nothing within the caller's constraint, the hooks, soft delete;
   * `set`: more columns written on them) — for an endpoint that has checked its own permission code; rows
   * only the server writes (`readOnly`: no removal route of the API takes them) are removed this way by the
   * binding's own endpoints (a WeChat material, once WeChat removed it); a ledger's (`appendOnly`) never
   */
  remove(ctx: RequestContext, ids: string[], set?: Record<string, unknown>): Promise<void>;
  /**
   * Changes columns of one row the caller may change, through the write path, inside `tx` (a write path
   * `transaction`): the row is read for update within the caller's constraint (`scope`, default theirs; not
   * found otherwise), then `set` — or what `set` answers for the row as it was (a transition decides from the
   * locked row) — is written with the update stamps and the binding's afterChange, and the change is told
   * once `tx` commits. Answers the row as written.
   */
  patch(
    ctx: RequestContext,
    tx: Db,
    id: string,
    set: Record<string, unknown> | ((row: Row) => Record<string, unknown> | Promise<Record<string, unknown>>),
    scope?: SQL,
  ): Promise<Row>;
  /** forget cached totals and run the resource's onChanged */
  changed(): void;
}
