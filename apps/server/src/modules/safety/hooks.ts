import { and, type SQL, sql } from 'drizzle-orm';
import type { ResourceHooks, Row } from '../../platform/crud/binding';
import { readableRows } from '../../platform/crud/refs';
import type { Db } from '../../platform/db';
import { cameraWallEndpoint, cameraWatchEndpoint } from './endpoints';
import { securityIncident as inc } from './tables';

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
export function safetyHooks(db: Db): Record<string, ResourceHooks> {
  return {
    camera: { endpoints: [cameraWallEndpoint, cameraWatchEndpoint] },
    securityOverview: summaryHooks(db),
  };
}
