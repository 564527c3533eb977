import type { ResourceDef } from '@smart/contracts';
import { getTableColumns } from 'drizzle-orm';
import { getTableConfig, PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { tableOf } from './model';

/** A derived table follows the definition's options: its key, soft delete and base columns. */
const base: ResourceDef = {
  key: 'probe',
  table: 'probe_table',
  label: { zh: '探针', en: 'Probe' },
  service: 'dfem-test',
  path: 'probe',
  route: '/test/probe',
  permission: 'probe',
  tenant: true,
  fields: [
    { name: 'code', label: { zh: '编号', en: 'Code' }, type: 'text', required: true, max: 12 },
    { name: 'name', label: { zh: '名称', en: 'Name' }, type: 'text', max: 40, search: 'equal' },
  ],
  unique: ['name'],
};

const dialect = new PgDialect();
const whereOf = (def: ResourceDef) =>
  Object.fromEntries(
    getTableConfig(tableOf(def)).indexes.map((ix) => [
      ix.config.name,
      ix.config.where ? dialect.sqlToQuery(ix.config.where).sql : undefined,
    ]),
  );

describe('tableOf', () => {
  it('by default: an id, the base columns and is_deleted; indexes over live rows', () => {
    const cols = getTableColumns(tableOf(base));
    expect(Object.keys(cols)).toEqual([
      'id',
      'tenantId',
      'code',
      'name',
      'createUser',
      'createDept',
      'createTime',
      'updateUser',
      'updateTime',
      'status',
      'isDeleted',
    ]);
    expect(cols.id.primary).toBe(true);
    const where = whereOf(base);
    expect(where.probe_table_page_idx).toBe('is_deleted = 0');
    expect(where.probe_table_name_uq).toBe('is_deleted = 0 and name is not null');
  });

  it('a key field of its own, no soft delete, no base columns', () => {
    const def: ResourceDef = { ...base, idField: 'code', softDelete: false, baseColumns: false };
    const cols = getTableColumns(tableOf(def));
    expect(Object.keys(cols)).toEqual(['tenantId', 'code', 'name']);
    expect(cols.code.primary).toBe(true);
    expect(cols.code.notNull).toBe(true);
    const where = whereOf(def);
    // every row is live: no index is partial but for the unique key's nulls
    expect(where.probe_table_page_idx).toBeUndefined();
    expect(where.probe_table_name_uq).toBe('name is not null');
    const page = getTableConfig(tableOf(def)).indexes.find((ix) => ix.config.name === 'probe_table_page_idx');
    expect(page?.config.columns.map((c) => (c as { name: string }).name)).toEqual(['tenant_id', 'code']);
  });

  it('soft delete without base columns keeps is_deleted alone', () => {
    const cols = getTableColumns(tableOf({ ...base, baseColumns: false }));
    expect(Object.keys(cols)).toEqual(['id', 'tenantId', 'code', 'name', 'isDeleted']);
  });
});
