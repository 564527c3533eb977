import type { ColumnInfo } from './catalog';

/**
 * A column's BladeX field prototype as a model starts with it: the property named and typed from the
 * column, shown in the list and form unless it is one of the base columns every table of this product (and
 * BladeX) carries, a control that fits the type.
 */

const BASE_COLUMNS = new Set([
  'id',
  'tenant_id',
  'create_user',
  'create_dept',
  'create_time',
  'update_user',
  'update_time',
  'status',
  'is_deleted',
]);

export const camel = (column: string) =>
  column.toLowerCase().replace(/_+([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** The property type of a column type, as the code generator writes it. */
export function propertyType(type: string): string {
  const t = type.toLowerCase();
  if (/^(bigint|int8|bigserial)/.test(t)) return 'Long';
  if (/^(integer|int|int4|smallint|int2|tinyint|mediumint|serial)/.test(t))
    return t.startsWith('tinyint(1)') ? 'Boolean' : 'Integer';
  if (/^(numeric|decimal|real|double|float)/.test(t)) return 'BigDecimal';
  if (/^(bool)/.test(t)) return 'Boolean';
  if (/^(timestamp|datetime|date|time)/.test(t)) return 'Date';
  return 'String';
}

function component(type: string, prop: string): string {
  if (prop === 'Date') return 'date';
  if (prop === 'Boolean') return 'switch';
  if (/^(text|mediumtext|longtext)/i.test(type)) return 'textarea';
  return 'input';
}

export function prototypeOf(c: ColumnInfo, sort: number): Record<string, unknown> {
  const base = BASE_COLUMNS.has(c.name.toLowerCase());
  const prop = propertyType(c.type);
  return {
    jdbcName: c.name,
    jdbcType: c.type.slice(0, 64),
    jdbcComment: c.comment?.slice(0, 255) ?? null,
    propertyName: camel(c.name).slice(0, 64),
    propertyType: prop,
    isList: base ? 0 : 1,
    isForm: base ? 0 : 1,
    isRow: 0,
    isRequired: c.notNull && !base ? 1 : 0,
    componentType: component(c.type, prop),
    dictCode: null,
    isQuery: 0,
    queryType: 'equal',
    sort,
  };
}
