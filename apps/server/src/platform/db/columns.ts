import { sql } from 'drizzle-orm';
import { customType, integer, pgSequence, timestamp, varchar } from 'drizzle-orm/pg-core';

/** One id sequence for every table: 64-bit ids, serialised as strings in JSON (api-contract §Identifiers). */
export const idSequence = pgSequence('blade_id_seq', { startWith: '1600000000000000000' });

/** bigint in the database, a decimal string in JavaScript and JSON (no precision lost past 2^53). */
const bigintString = customType<{ data: string; driverData: string | number | bigint }>({
  dataType: () => 'bigint',
  fromDriver: (v) => String(v),
  toDriver: (v) => v,
});

export const id = () => bigintString('id').primaryKey().default(sql`nextval('blade_id_seq')`);

export const idRef = (name: string) => bigintString(name);

/** Base columns of every business table (api-contract §Base columns); the server fills them, never a body. */
export const baseColumns = () => ({
  createUser: idRef('create_user'),
  createDept: idRef('create_dept'),
  createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
  updateUser: idRef('update_user'),
  updateTime: timestamp('update_time', { withTimezone: true }).notNull().defaultNow(),
  status: integer('status').notNull().default(1),
  isDeleted: integer('is_deleted').notNull().default(0),
});

export const tenantColumn = () => varchar('tenant_id', { length: 12 }).notNull().default('000000');
