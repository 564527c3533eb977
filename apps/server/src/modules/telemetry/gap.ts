import type { DeviceKindKey } from '@smart/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db';
import { notDeleted } from '../../platform/sql';
import { backfillReadings } from './seed';
import { demoSecret, SIMULATED_KINDS } from './simulator';
import { device, telemetryState } from './tables';

/** the longest silence a starting simulator fills (a demo left off for weeks starts this far back) */
const GAP_MAX_DAYS = 35;
/** a silence shorter than this is the simulator's own next reading, not a gap */
const GAP_MIN_MS = 15 * 60_000;
/** within the last two days the gap is filled every 15 minutes (curves), before them hourly (days' totals) */
const FINE_MS = 2 * 86_400_000;
const HOUR_MS = 3_600_000;
const ceilTo = (ms: number, step: number) => Math.ceil(ms / step) * step;

/**
 * What the demo devices would have reported while the demo was off: when the in-process simulator starts,
 * each demo device it speaks for that has reported before and been silent since gets the simulator's
 * readings from its last one up to now (at most GAP_MAX_DAYS), written as the ingestion writes them. A demo
 * started again after days off then shows a yield for each of those days, not their sum on the day it
 * came back (the counter's rise over a gap is counted in the next day that has readings). Runs in the
 * background; readings of the same time from the simulator itself are merged by the roll-ups (the later
 * reading's `last` wins).
 */
export async function fillSimulatorGap(db: Db, log: FastifyBaseLogger, now = Date.now()) {
  const rows = await db
    .select({
      id: device.id,
      kind: device.kind,
      serial: device.serial,
      name: device.name,
      secret: device.secret,
      tenantId: device.tenantId,
      lastAt: telemetryState.lastAt,
    })
    .from(device)
    .innerJoin(telemetryState, eq(telemetryState.deviceId, device.id))
    .where(
      and(eq(device.tenantId, '000000'), inArray(device.kind, SIMULATED_KINDS), notDeleted(device.isDeleted)),
    );
  let filled = 0;
  for (const r of rows) {
    if (!r.secret || r.secret !== demoSecret(String(r.serial))) continue;
    const last = r.lastAt.getTime();
    if (now - last < GAP_MIN_MS) continue;
    // whole hours after the last reading (never a second reading at a time the device already reported)
    const from = ceilTo(Math.max(last + 1, now - GAP_MAX_DAYS * 86_400_000), HOUR_MS);
    const fine = Math.max(from, ceilTo(now - FINE_MS, HOUR_MS));
    const dev = [[String(r.id), r.kind as DeviceKindKey, String(r.serial), String(r.name)] as const];
    if (fine > from)
      await backfillReadings(db, String(r.tenantId), dev, 0, () => HOUR_MS, { from, to: fine });
    await backfillReadings(db, String(r.tenantId), dev, 0, () => 15 * 60_000, { from: fine, to: now });
    filled++;
  }
  if (filled) log.info({ devices: filled }, 'device simulator: filled the demo devices’ silence');
}
