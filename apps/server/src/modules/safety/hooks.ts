import { and, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { ResourceHooks, Row } from '../../platform/crud/binding';
import { readableRows } from '../../platform/crud/refs';
import type { Db } from '../../platform/db';
import { cameraWallEndpoint, cameraWatchEndpoint } from './endpoints';
import { securityIncident as inc, SAFETY_TABLES } from './tables';

/** What differs from the engine's pattern in the safety area. */

const tz = () => process.env.TZ || 'Asia/Shanghai';

/** Incidents that occurred within `from`..`to` (whole days, the server's time zone). */
export function occurredWithin(from: string, to: string): SQL {
  return sql`${inc.occurredAt} >= (${from}::timestamp at time zone ${tz()}) and ${inc.occurredAt} < ((${to}::timestamp + interval '1 day') at time zone ${tz()})`;
}

/**
 * A safety summary counts the incidents of its period when it is saved: the 治安巡防 records the writer may
 * read (tenant, data scope) that occurred within it, and how many of them are closed.
 */
function summaryHooks(db: Db): ResourceHooks {
  return {
    async beforeWrite(ctx, record, _mode, _id, original?: Row) {
      const period = String(record.period ?? original?.period ?? '');
      const [from, to] = period.split(',');
      if (!from || !to) return;
      const [row] = await db
        .select({
          n: sql<number>`count(*)::int`,
          closed: sql<number>`(count(*) filter (where ${inc.state} = '3'))::int`,
        })
        .from(inc)
        .where(and(await readableRows('securityIncident', ctx), occurredWithin(from, to)));
      record.incidents = Number(row?.n ?? 0);
      record.closedIncidents = Number(row?.closed ?? 0);
    },
  };
}

/** Every safety resource's table and hooks, for modules/resources.ts. */
export function safetyBindings(db: Db): Record<string, { table: PgTable; hooks?: ResourceHooks }> {
  return {
    securityPrincipal: { table: SAFETY_TABLES.securityPrincipal },
    camera: { table: SAFETY_TABLES.camera, hooks: { endpoints: [cameraWallEndpoint, cameraWatchEndpoint] } },
    securityIncident: { table: SAFETY_TABLES.securityIncident },
    securityOverview: { table: SAFETY_TABLES.securityOverview, hooks: summaryHooks(db) },
    cameraWatchLog: { table: SAFETY_TABLES.cameraWatchLog },
  };
}
