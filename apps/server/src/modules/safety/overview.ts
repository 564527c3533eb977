import type { SafetyCount, SafetyFigures } from '@smart/contracts';
import { sql } from 'drizzle-orm';
import type { OverviewCall } from '../../platform/area';
import { countBy } from '../../platform/crud/count-by';
import { readableRows } from '../../platform/crud/refs';
import { camera, securityIncident as inc, securityPrincipal } from './tables';

/**
 * The safety overview (平安概览): figures computed in SQL from the rows the caller may read of each resource
 * it counts (tenant, live rows, data scope): cameras online and offline, principals, incidents (open ones:
 * not closed), incidents by kind (dictionary-labelled by `countBy`) and by month over the last 12 months.
 */

const ONLINE = { zh: ['在线', '离线'], en: ['Online', 'Offline'] } as const;
const int = (x: unknown) => Number(x ?? 0);

/** the last 12 months, oldest first, as YYYY-MM in the server's time zone */
function lastMonths(now: Date, tz: string): string[] {
  const [y, m] = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit' })
    .format(now)
    .split('-')
    .map(Number);
  const out: string[] = [];
  for (let i = 11; i >= 0; i--) {
    const d = new Date(Date.UTC(y, m - 1 - i, 1));
    out.push(`${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`);
  }
  return out;
}

export async function safetyOverview({ req, ctx, db }: OverviewCall) {
  const tz = process.env.TZ || 'Asia/Shanghai';
  const months = lastMonths(new Date(), tz);
  const [cameras, incidents, principals] = await Promise.all([
    readableRows('camera', ctx),
    readableRows('securityIncident', ctx),
    readableRows('securityPrincipal', ctx),
  ]);
  const month = sql<string>`to_char(${inc.occurredAt} at time zone ${tz}, 'YYYY-MM')`;
  const [[cam], [incTotals], [principalCount], byKind, monthRows] = await Promise.all([
    db
      .select({
        n: sql<number>`count(*)::int`,
        online: sql<number>`(count(*) filter (where ${camera.online} = 1))::int`,
      })
      .from(camera)
      .where(cameras),
    db
      .select({
        n: sql<number>`count(*)::int`,
        open: sql<number>`(count(*) filter (where ${inc.state} is distinct from '3'))::int`,
      })
      .from(inc)
      .where(incidents),
    db.select({ n: sql<number>`count(*)::int` }).from(securityPrincipal).where(principals),
    countBy(req, 'securityIncident', 'kind'),
    db
      .select({ month, n: sql<number>`count(*)::int` })
      .from(inc)
      .where(
        sql`${incidents} and ${inc.occurredAt} >= ((${`${months[0]}-01`}::timestamp) at time zone ${tz})`,
      )
      // by the select's first column: the time zone is bound twice, and two parameters are two expressions
      .groupBy(sql`1`),
  ]);
  const online = int(cam.online);
  const byOnline: SafetyCount[] = [
    { key: '1', name: ONLINE[req.lang][0], value: online },
    { key: '0', name: ONLINE[req.lang][1], value: int(cam.n) - online },
  ];
  const byMonth: SafetyCount[] = months.map((key) => ({
    key,
    name: key,
    value: int(monthRows.find((r) => r.month === key)?.n),
  }));
  const answer: SafetyFigures = {
    cameras: int(cam.n),
    camerasOnline: online,
    principals: int(principalCount.n),
    incidents: int(incTotals.n),
    openIncidents: int(incTotals.open),
    byOnline,
    byKind,
    byMonth,
  };
  return answer;
}
