import type { ResourceDef } from '@smart/contracts';
import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { RequestContext } from '../auth/context';
import type { Db } from '../db';
import type { Lang } from '../http/messages';
import type { ResourceEndpoint } from './endpoints';

/**
 * What binds a definition to its table and its code: the hooks a module gives the engine, and the mounted
 * resource the engine's parts (routes, references, Excel, the write path) share. Types only, so the parts
 * import it without importing each other.
 */

/** A row as selected (`MountedResource.selection`): property = field name. */
export type Row = Record<string, unknown>;

export interface ResourceHooks {
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
  ) => Promise<void> | void;
  /** turns a row into what the API answers, after the engine's formatting (after read) */
  toRow?: (row: Row) => Row;
  /** extra query keys the list accepts (handled by `extraWhere`) */
  extraKeys?: string[];
  /** a code-level row filter of this binding's lists (beside the definition's whitelisted filters) */
  extraWhere?: (ctx: RequestContext, query: Record<string, string>) => SQL | undefined;
  /**
   * runs in the write's transaction after a row is created (e.g. a tenant's administrator); what it
   * returns is added to the submit's answer (e.g. an initial password shown once), never stored
   */
  afterCreate?: (ctx: RequestContext, row: Row, tx: Db) => Promise<Record<string, unknown> | undefined>;
  /**
   * runs in the write's transaction after every created or changed row, whichever path wrote it (submit,
   * Excel import, a bulk action): the row as written and, on update, as it was
   */
  afterChange?: (
    ctx: RequestContext,
    change: { mode: 'create' | 'update'; row: Row; original?: Row },
    tx: Db,
  ) => Promise<void> | void;
  /** runs in the removal's transaction before rows are removed; throw to refuse */
  beforeRemove?: (ctx: RequestContext, ids: string[], tx: Db) => Promise<void>;
  /** runs in the removal's transaction after the rows are removed */
  afterDelete?: (ctx: RequestContext, ids: string[], tx: Db) => Promise<void> | void;
  /** after any successful write or removal, once committed (drop caches that remember these rows) */
  onChanged?: () => void;
  /** views beyond the list, mounted under the resource's path with its permission and row constraint */
  endpoints?: ResourceEndpoint[];
}

export interface MountedResource {
  def: ResourceDef;
  table: PgTable;
  /** the constraint every read and write of this caller adds: tenant, not deleted, data scope */
  constraint(ctx: RequestContext): Promise<SQL>;
  db: Db;
  hooks: ResourceHooks;
  /** columns by property (= field) name */
  cols: Record<string, PgColumn>;
  /** what a list or detail selects, and how a selected row is answered (references labelled) */
  selection: Record<string, PgColumn>;
  /** rows as answered: references' labels, and dictionary labels (`<field>Name`) in `lang` (default zh) */
  output(ctx: RequestContext, rows: Row[], lang?: Lang): Promise<Row[]>;
  /** the list's WHERE for a query string (filters whitelisted, constraint added); a 400 for anything else */
  listWhere(ctx: RequestContext, query: Record<string, string>): Promise<SQL>;
  /** forget cached totals and run the resource's onChanged */
  changed(): void;
}
