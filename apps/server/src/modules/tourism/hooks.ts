import {
  BOOKING_STATE,
  fill,
  lineKilometres,
  slotName,
  type Text2,
  TOURISM_MESSAGES,
} from '@smart/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import type { Change, ResourceHooks, Row } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { mountedResource } from '../../platform/crud/refs';
import { transition } from '../../platform/crud/transitions';
import { adjustCount, transaction } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { FieldInputError, notFound } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { newRedeemCode, normalRedeemCode, qrPngDataUrl } from '../../platform/redeem';
import { notDeleted, qualified } from '../../platform/sql';
import { mapSettings } from '../agriculture/map-settings';
import { tourismBooking, tourismPreset, tourismSlot } from './tables';

/**
 * What differs from the engine's pattern in rural tourism: a route's length computed from its line; a
 * slot's name, its clock times in order, its capacity never below what is booked, and its places left; a
 * booking's seats taken from its slot by one conditional update inside the booking's own transaction
 * (`booked + N <= capacity`: two bookings racing for the last places cannot both have them), given back
 * when it is cancelled, moved or removed; its redemption code, verified (核销) by code, and its QR image.
 */

const has = (o: Record<string, unknown>, k: string) => Object.hasOwn(o, k);
/** a value as written: the record's when it sends one, else the row's as it was */
const written = (record: Record<string, unknown>, original: Row | undefined, k: string) =>
  has(record, k) ? record[k] : original?.[k];
const message = (field: string, text: Text2, vars: Record<string, string | number> = {}) =>
  new FieldInputError(field, fill(text, vars));

const mapSettingsEndpoint = (db: Db) =>
  endpoint({
    method: 'GET',
    path: 'map/settings',
    codeSuffix: '',
    query: z.object({}).strict(),
    handler: ({ ctx }) => mapSettings(db, ctx.tenantId),
  });

function presetHooks(db: Db): ResourceHooks {
  return { endpoints: [mapSettingsEndpoint(db)] };
}

function routeHooks(db: Db): ResourceHooks {
  return {
    endpoints: [mapSettingsEndpoint(db)],
    beforeWrite(_ctx, record) {
      // the length follows the line (the form showed the same number, computed by the same function);
      // whatever length a client sends is never read (`readOnly`)
      if (has(record, 'points')) {
        const km = lineKilometres(record.points);
        record.lengthKm = km === null ? null : km.toFixed(2);
      }
    },
  };
}

const slots = () => mountedResource('tourismSlot');

/** Gives `n` places of a slot back (a cancelled, moved or removed booking), through the write path. */
async function release(tx: Db, ctx: RequestContext, slotId: string, n: number) {
  const m = slots();
  await adjustCount(m, ctx, tx, slotId, 'booked', -n, await m.tenantConstraint(ctx));
}

/**
 * Takes `n` places of a slot, or refuses with the places left: the engine's `adjustCount`, one statement
 * that adds them only while they fit (`booked + n <= capacity`), so of two bookings racing for the last
 * places the second re-reads the first's count (the row lock of READ COMMITTED) and is refused.
 */
async function take(tx: Db, ctx: RequestContext, slotId: string, n: number) {
  const m = slots();
  const done = await adjustCount(m, ctx, tx, slotId, 'booked', n, await m.tenantConstraint(ctx), {
    max: 'capacity',
  });
  if (done !== undefined) return;
  const [slot] = await tx
    .select({ capacity: tourismSlot.capacity, booked: tourismSlot.booked })
    .from(tourismSlot)
    .where(and(eq(tourismSlot.id, slotId), eq(tourismSlot.tenantId, ctx.tenantId)))
    .limit(1);
  const left = slot ? Math.max(0, Number(slot.capacity) - Number(slot.booked)) : 0;
  throw message('people', TOURISM_MESSAGES.full, { n: left });
}

/** Whether a slot has started (its day and start time, in the server's time zone). */
async function started(tx: Db, slotId: string): Promise<boolean> {
  const [slot] = await tx
    .select({ day: tourismSlot.day, startTime: tourismSlot.startTime })
    .from(tourismSlot)
    .where(eq(tourismSlot.id, slotId))
    .limit(1);
  if (!slot) return false;
  return formatDateTime(new Date()) >= `${String(slot.day).slice(0, 10)} ${slot.startTime}:00`;
}

/** The places a booking holds: its people on its slot unless it was cancelled (a verified visit keeps them). */
const held = (row: Row | undefined) =>
  row?.state && String(row.state) !== BOOKING_STATE.cancelled && row?.slotId
    ? { slot: String(row.slotId), n: Number(row.people ?? 0) }
    : null;

function slotHooks(db: Db): ResourceHooks {
  return {
    beside: {
      remaining: sql`greatest(${qualified(tourismSlot.capacity)} - ${qualified(tourismSlot.booked)}, 0)`,
    },
    async beforeWrite(ctx, record, mode, _id, original) {
      if (mode === 'create') record.booked = 0;
      const start = String(written(record, original, 'startTime') ?? '');
      const end = String(written(record, original, 'endTime') ?? '');
      if (start && end && end <= start) throw message('endTime', TOURISM_MESSAGES.endBeforeStart);
      if (
        mode === 'update' &&
        has(record, 'capacity') &&
        Number(record.capacity) < Number(original?.booked ?? 0)
      )
        throw message('capacity', TOURISM_MESSAGES.belowBooked, { n: Number(original?.booked ?? 0) });
      // the slot's name: its place, day and clock times (how pickers and bookings name it)
      const presetId = written(record, original, 'presetId');
      const [place] = presetId
        ? await db
            .select({ name: tourismPreset.name })
            .from(tourismPreset)
            .where(and(eq(tourismPreset.id, String(presetId)), eq(tourismPreset.tenantId, ctx.tenantId)))
            .limit(1)
        : [];
      const day = String(written(record, original, 'day') ?? '').slice(0, 10);
      record.name = slotName(String(place?.name ?? ''), day, start, end).trim();
    },
    afterChange(_ctx, changes) {
      // as written, under the row's lock: a booking that took places meanwhile is counted
      for (const c of changes)
        if (c.mode === 'update' && Number(c.row.capacity) < Number(c.row.booked))
          throw message('capacity', TOURISM_MESSAGES.belowBooked, { n: Number(c.row.booked) });
    },
    async beforeRemove(ctx, ids, tx) {
      const [busy] = await tx
        .select({ id: tourismBooking.id })
        .from(tourismBooking)
        .where(
          and(
            inArray(tourismBooking.slotId, ids),
            eq(tourismBooking.tenantId, ctx.tenantId),
            notDeleted(tourismBooking.isDeleted),
            eq(tourismBooking.state, BOOKING_STATE.awaiting),
          ),
        )
        .limit(1);
      if (busy) throw message('ids', TOURISM_MESSAGES.slotHasBookings);
    },
  };
}

/** 核销: a booking awaiting its visit, found by its code within the caller's reach, is verified. */
const verifyEndpoint = endpoint({
  method: 'POST',
  path: 'verify',
  codeSuffix: '_verify',
  query: z.object({}).strict(),
  body: z.object({ code: z.string().max(64) }).strict(),
  async handler({ req, ctx, resource, scope, body }) {
    const code = normalRedeemCode(body.code);
    if (!code) throw message('code', TOURISM_MESSAGES.badCode);
    const [found] = await resource.db
      .select({ id: tourismBooking.id })
      .from(tourismBooking)
      .where(and(eq(tourismBooking.code, code), scope))
      .limit(1);
    if (!found) throw notFound();
    const row = await transaction(resource.db, (tx) =>
      resource.patch(
        ctx,
        tx,
        String(found.id),
        (was) => {
          const state = String(was.state ?? '');
          if (state === BOOKING_STATE.verified) throw message('code', TOURISM_MESSAGES.used);
          if (state !== BOOKING_STATE.awaiting) throw message('code', TOURISM_MESSAGES.cancelled);
          return {
            state: BOOKING_STATE.verified,
            verifiedBy: ctx.account,
            verifiedAt: formatDateTime(new Date()),
          };
        },
        scope,
      ),
    );
    const [answered] = await resource.output(ctx, [row], req.lang);
    return answered;
  },
});

/** A booking's code as a QR image, to whoever may read the booking. */
const qrEndpoint = endpoint({
  method: 'GET',
  path: 'qr',
  codeSuffix: '',
  query: z.object({ id: idString }).strict(),
  async handler({ resource, scope, query }) {
    const [found] = await resource.db
      .select({ code: tourismBooking.code })
      .from(tourismBooking)
      .where(and(eq(tourismBooking.id, query.id), scope))
      .limit(1);
    if (!found?.code) throw notFound();
    const code = String(found.code);
    return { code, image: await qrPngDataUrl(code) };
  },
});

/** 取消预约: awaiting its visit → cancelled (its places given back by afterChange, before the slot starts). */
const cancel = transition({
  name: 'cancel',
  codeSuffix: '_cancel',
  field: 'state',
  from: [BOOKING_STATE.awaiting],
  to: BOOKING_STATE.cancelled,
  refused: () => message('state', TOURISM_MESSAGES.notAwaiting),
});

/** Moves places as bookings change: what the booking held before is given back, what it holds now taken. */
async function movePlaces(ctx: RequestContext, changes: Change[], tx: Db) {
  for (const c of changes) {
    const before = held(c.original);
    const after = held(c.row);
    if (before && after && before.slot === after.slot && before.n === after.n) continue;
    if (before && String(c.row.state) === BOOKING_STATE.cancelled && (await started(tx, before.slot)))
      throw message('state', TOURISM_MESSAGES.slotStarted);
    if (before) await release(tx, ctx, before.slot, before.n);
    if (after) await take(tx, ctx, after.slot, after.n);
  }
}

function bookingHooks(): ResourceHooks {
  return {
    beforeWrite(_ctx, record, mode) {
      if (mode !== 'create') return;
      record.state = BOOKING_STATE.awaiting;
      record.code = newRedeemCode();
    },
    afterChange: movePlaces,
    async beforeRemove(ctx, ids, tx) {
      // a removed booking that still held places gives them back (a visit verified or to come)
      const rows = await tx
        .select({
          id: tourismBooking.id,
          slotId: tourismBooking.slotId,
          people: tourismBooking.people,
          state: tourismBooking.state,
        })
        .from(tourismBooking)
        .where(
          and(
            inArray(tourismBooking.id, ids),
            eq(tourismBooking.tenantId, ctx.tenantId),
            notDeleted(tourismBooking.isDeleted),
          ),
        );
      for (const r of rows) {
        const h = held(r as Row);
        if (h) await release(tx, ctx, h.slot, h.n);
      }
    },
    endpoints: [verifyEndpoint, qrEndpoint],
    transitions: [cancel],
  };
}

export const tourismHooks = (db: Db): Record<string, ResourceHooks> => ({
  tourismPresets: presetHooks(db),
  tourismRoute: routeHooks(db),
  tourismSlot: slotHooks(db),
  tourismBooking: bookingHooks(),
});
