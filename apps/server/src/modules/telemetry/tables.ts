import { deviceAlarmResource, deviceResource, pestPhotoResource } from '@smart/contracts';
import {
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  timestamp,
} from 'drizzle-orm/pg-core';
import { tableOf } from '../../platform/crud/model';
import { idRef, tenantColumn } from '../../platform/db/columns';

/**
 * The telemetry core's tables. Devices and alarms are entities: their tables are derived from their
 * definitions (packages/contracts/src/resource/telemetry.ts). The rest is the core's own state, written by
 * the ingestion only, like the workflow engine's runtime tables:
 *
 * - `telemetry_reading` (device, metric, time, value): append-only, partitioned by month. drizzle cannot
 *   declare a partitioned table, so migration 0025 creates it by hand and `partitions.ts` adds the months;
 *   it holds the recent days (and late readings until the next compaction); it is read through
 *   `readings.ts` only.
 * - `telemetry_chunk`: the closed days, one row per device, metric and UTC day holding that day's readings
 *   in the compact form of `chunk-codec.ts` (compact.ts moves them there); also read through `readings.ts`.
 * - `telemetry_rollup`: 5-minute, hourly and daily buckets of each device's metric (count, sum, min, max,
 *   last), kept up to date as readings arrive: a year of one metric is 365 daily or 8 760 hourly rows.
 * - `telemetry_state`: a device's last reading (time, values) and whether it is known silent.
 */

export const device = tableOf(deviceResource);
export const deviceAlarm = tableOf(deviceAlarmResource);
export const pestPhoto = tableOf(pestPhotoResource);

/** Bucket grains of `telemetry_rollup`, and their width in seconds. */
export const GRAIN = { fiveMinutes: 1, hour: 2, day: 3 } as const;
export const GRAIN_SECONDS: Record<number, number> = { 1: 300, 2: 3600, 3: 86_400 };

export const telemetryRollup = pgTable(
  'telemetry_rollup',
  {
    deviceId: idRef('device_id').notNull(),
    metric: smallint('metric').notNull(),
    grain: smallint('grain').notNull(),
    /** the bucket's start (a day starts at midnight in the server's time zone) */
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    n: integer('n').notNull(),
    total: doublePrecision('total').notNull(),
    low: doublePrecision('low').notNull(),
    high: doublePrecision('high').notNull(),
    last: doublePrecision('last').notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.metric, t.grain, t.bucket] })],
);

const bytea = customType<{ data: Uint8Array }>({ dataType: () => 'bytea' });

export const telemetryChunk = pgTable(
  'telemetry_chunk',
  {
    deviceId: idRef('device_id').notNull(),
    metric: smallint('metric').notNull(),
    /** the chunk's UTC day (its midnight): times in `data` count from it */
    day: timestamp('day', { withTimezone: true }).notNull(),
    n: integer('n').notNull(),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.metric, t.day] })],
);

export const telemetryState = pgTable(
  'telemetry_state',
  {
    deviceId: idRef('device_id').primaryKey(),
    tenantId: tenantColumn(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    /** the last value of each metric, by code */
    lastValues: jsonb('last_values').$type<Record<string, number>>().notNull(),
    /** 1 once the offline check found the device silent (and raised its alarm); 0 when it reports again */
    offline: smallint('offline').notNull().default(0),
  },
  (t) => [index('telemetry_state_silent_idx').on(t.offline, t.lastAt)],
);
