import {
  distribute,
  ISSUED_IMAGE_PATH,
  incomeByDays,
  incomeCents,
  type ShareHolder,
  sumEnergy,
  type TariffVersion,
  tariffOn,
} from '@smart/contracts';
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import type { ResourceHooks, Row } from '../../platform/crud/binding';
import { countBy } from '../../platform/crud/count-by';
import { endpoint } from '../../platform/crud/endpoints';
import { readableRows } from '../../platform/crud/refs';
import { updateRow } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { sendXlsx } from '../../platform/excel';
import { ApiError, FieldInputError, notFound } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { PageQuery, pagedList } from '../../platform/paging';
import { villager } from '../village/tables';
import {
  inverter,
  newEnergyHeating,
  newEnergyPower,
  powerShare,
  powerStation,
  powerStationProfit,
  powerTariff,
  powerVideo,
} from './tables';
import { dailyEnergy, dayLabel, daysBetween, parseDay } from './yield';

/** What differs from the engine's pattern in the PV stations' resources. */

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** The inverters of a station the caller may read that report through a device of the core. */
export async function stationInverters(db: Db, ctx: RequestContext, stationId: string) {
  return db
    .select({ id: inverter.id, deviceId: inverter.deviceId, ratedPower: inverter.ratedPower })
    .from(inverter)
    .where(
      and(
        await readableRows('inverter', ctx),
        eq(inverter.stationId, stationId),
        isNotNull(inverter.deviceId),
      ),
    );
}

/** A station's energy per day of a month (YYYY-MM), from its inverters' counters (null: nothing read). */
export async function monthDays(
  db: Db,
  ctx: RequestContext,
  stationId: string,
  month: string,
): Promise<[day: string, energy: number | null][]> {
  const from = parseDay(`${month}-01`);
  const [y, m] = month.split('-').map(Number);
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  const to = parseDay(`${next}-01`);
  const invs = await stationInverters(db, ctx, stationId);
  const days = daysBetween(from, to);
  const energies = await dailyEnergy(
    db,
    invs.map((i) => ({
      deviceId: String(i.deviceId),
      ratedPower: i.ratedPower ? Number(i.ratedPower) : null,
    })),
    days,
  );
  return days.map((d, k) => [dayLabel(d), sumEnergy([...energies.values()].map((e) => e[k]?.energy))]);
}

/** A station's energy over a month (YYYY-MM), from its inverters' counters; null when nothing was read. */
export async function monthEnergy(db: Db, ctx: RequestContext, stationId: string, month: string) {
  return sumEnergy((await monthDays(db, ctx, stationId, month)).map(([, e]) => e));
}

/**
 * A station's tariff versions the caller may read (`powerTariff`), oldest first (one a day: the definition's
 * unique key).
 */
export async function tariffVersions(
  db: Db,
  ctx: RequestContext,
  stationId: string,
): Promise<TariffVersion[]> {
  const rows = await db
    .select({ from: powerTariff.effectiveFrom, tariff: powerTariff.tariff })
    .from(powerTariff)
    .where(and(await readableRows('powerTariff', ctx), eq(powerTariff.stationId, stationId)))
    .orderBy(asc(powerTariff.effectiveFrom), asc(powerTariff.id));
  return rows.map((r) => ({ from: dateText(r.from), tariff: Number(r.tariff) }));
}

/** a date column's value as YYYY-MM-DD (the driver may answer a text or a Date) */
const dateText = (v: unknown) =>
  v instanceof Date
    ? `${v.getFullYear()}-${String(v.getMonth() + 1).padStart(2, '0')}-${String(v.getDate()).padStart(2, '0')}`
    : String(v).slice(0, 10);

/**
 * A month's profit is computed when saved. Energy and tariff both left empty: the station's yield day by
 * day, each day at the tariff in force that day (the latest version effective that day or before, the
 * station's own tariff before the first), rounded to the cent per day and summed (`incomeByDays`); the
 * tariff is written when the month had one, left empty when it had several (an edit that keeps the
 * computed energy is priced the same way). Another energy given by hand is a month's total: it takes the
 * tariff given, else the one in force on the month's last day. The income is
 * distributed to the households holding shares of the station (largest remainder: the amounts sum to the
 * income exactly); a household's own station without shares gives the whole income to that household.
 */
function profitHooks(db: Db): ResourceHooks {
  return {
    async beforeWrite(ctx, record, _mode, _id, original?: Row) {
      const stationId = String(record.stationId ?? original?.stationId ?? '');
      const month = String(record.month ?? original?.month ?? '');
      const [station] = await db
        .select({ tariff: powerStation.tariff, householdId: powerStation.householdId })
        .from(powerStation)
        .where(and(await readableRows('powerStation', ctx), eq(powerStation.id, stationId)))
        .limit(1);
      if (!station) throw new FieldInputError('stationId', { zh: '所属电站不存在', en: 'No such station' });
      let cents: number | undefined;
      if (blank(record.tariff)) {
        const [days, versions] = await Promise.all([
          monthDays(db, ctx, stationId, month),
          tariffVersions(db, ctx, stationId),
        ]);
        const base = Number(station.tariff);
        const yieldEnergy = sumEnergy(days.map(([, e]) => e)) ?? 0;
        // the month's own yield (left empty, or kept as it was computed when the row is edited): day by day
        if (blank(record.energy) || Number(record.energy) === yieldEnergy) {
          const r = incomeByDays(days, versions, base);
          cents = r.cents;
          record.energy = String(yieldEnergy);
          const single = r.tariffs.length ? r.tariffs : [tariffOnMonthEnd(month, versions, base)];
          record.tariff = single.length === 1 ? String(single[0]) : null;
        } else record.tariff = String(tariffOnMonthEnd(month, versions, base));
      } else if (blank(record.energy)) {
        const e = await monthEnergy(db, ctx, stationId, month);
        record.energy = String(e ?? 0);
      }
      cents ??= incomeCents(Number(record.energy), Number(record.tariff));
      record.income = (cents / 100).toFixed(2);
      const holders: ShareHolder[] = (
        await db
          .select({ villagerId: powerShare.villagerId, share: powerShare.share })
          .from(powerShare)
          .where(and(await readableRows('powerShare', ctx), eq(powerShare.stationId, stationId)))
          .orderBy(asc(powerShare.id))
      ).map((r) => ({ villagerId: String(r.villagerId), share: Number(r.share) }));
      // a household's own station, with no shares set: its whole income is that household's
      if (!holders.length && station.householdId)
        holders.push({ villagerId: String(station.householdId), share: 1 });
      record.distribution = JSON.stringify(distribute(cents, holders));
    },
  };
}

/** the tariff in force on a month's (YYYY-MM) last day */
function tariffOnMonthEnd(month: string, versions: TariffVersion[], base: number) {
  return tariffOn(`${month}-31`, versions, base);
}

/**
 * `powerStationProfit/statement/export?id=`: one month's statement per household as Excel — each household
 * holding shares (name and household number where the caller may read the villager), its shares, its part
 * and its amount, then the total, which is the income to the cent. The profit row is read within the
 * caller's reach of the profits (`scope`).
 */
const statementExport = endpoint({
  method: 'GET',
  path: 'statement/export',
  query: z.object({ id: idString }).strict(),
  async handler({ req, reply, resource, scope, ctx, query }) {
    const [row] = await resource.db
      .select({
        stationName: powerStation.name,
        month: powerStationProfit.month,
        income: powerStationProfit.income,
        distribution: powerStationProfit.distribution,
      })
      .from(powerStationProfit)
      .leftJoin(powerStation, eq(powerStation.id, powerStationProfit.stationId))
      .where(and(scope, eq(powerStationProfit.id, query.id)))
      .limit(1);
    if (!row) throw notFound();
    let lines: { villagerId: string; share: number; amount: string }[] = [];
    try {
      lines = JSON.parse(String(row.distribution ?? '[]'));
    } catch {}
    // a statement adds up to the income: with nobody to distribute it to there is none to make
    if (!lines.length && Number(row.income) > 0) throw new ApiError(409, 'powerNoShares');
    const ids = [...new Set(lines.map((l) => String(l.villagerId)))];
    const people = ids.length
      ? await resource.db
          .select({ id: villager.id, name: villager.name, householdNo: villager.householdNo })
          .from(villager)
          .where(and(await readableRows('villager', ctx), inArray(villager.id, ids)))
      : [];
    const byId = new Map(people.map((p) => [String(p.id), p]));
    const total = lines.reduce((a, l) => a + Number(l.share), 0);
    const cents = lines.reduce((a, l) => a + Math.round(Number(l.amount) * 100), 0);
    const en = req.lang === 'en';
    const rows: Record<string, unknown>[] = lines.map((l) => {
      const p = byId.get(String(l.villagerId));
      return {
        name: p?.name ?? '',
        householdNo: p?.householdNo ?? '',
        share: Number(l.share),
        part: total ? `${((Number(l.share) / total) * 100).toFixed(2)}%` : '',
        amount: l.amount,
      };
    });
    rows.push({
      name: en ? 'Total' : '合计',
      householdNo: '',
      share: total,
      part: lines.length ? '100.00%' : '',
      amount: (cents / 100).toFixed(2),
    });
    async function* all() {
      yield rows;
    }
    await sendXlsx(
      reply,
      `${row.stationName ?? ''}-${row.month}-${en ? 'statement' : '收益分配明细'}`,
      [
        { key: 'name', header: en ? 'Household' : '受益农户', width: 16 },
        { key: 'householdNo', header: en ? 'Household no.' : '户号', width: 14 },
        { key: 'share', header: en ? 'Shares' : '份额' },
        { key: 'part', header: en ? 'Part' : '占比' },
        { key: 'amount', header: en ? 'Amount (CNY)' : '分配金额(元)' },
      ],
      all(),
    );
    return reply;
  },
});

/** `newEnergyPower/device/page`: the devices with their kind's and station's names, paged. */
const devicePage = endpoint({
  method: 'GET',
  path: 'device/page',
  query: PageQuery.extend({ kind: z.string().max(10).optional() }).strict(),
  async handler({ resource, scope, query }) {
    const where = and(scope, query.kind ? eq(newEnergyPower.kind, query.kind) : undefined);
    return pagedList(query, {
      rows: resource.db
        .select({
          id: newEnergyPower.id,
          name: newEnergyPower.name,
          kind: newEnergyPower.kind,
          stationId: newEnergyPower.stationId,
          stationName: powerStation.name,
          village: newEnergyPower.village,
          ratedPower: newEnergyPower.ratedPower,
          energy: newEnergyPower.energy,
          photos: newEnergyPower.photos,
        })
        .from(newEnergyPower)
        .leftJoin(powerStation, eq(powerStation.id, newEnergyPower.stationId))
        .where(where)
        .orderBy(asc(newEnergyPower.id)),
      total: resource.db.select({ total: sql<number>`count(*)::int` }).from(newEnergyPower).where(where),
      records: (rows) =>
        rows.map((r) => ({
          ...r,
          id: String(r.id),
          stationId: r.stationId ? String(r.stationId) : null,
          ratedPower: r.ratedPower === null ? null : Number(r.ratedPower),
          energy: r.energy === null ? null : Number(r.energy),
          photos: r.photos ? String(r.photos).split(',') : [],
        })),
    });
  },
});

/** `newEnergyPower/statistics`: per kind, how many devices, their rated power and energy; heating in all. */
const statistics = endpoint({
  method: 'GET',
  path: 'statistics',
  query: z.object({}).strict(),
  async handler({ req, resource, scope, ctx }) {
    const [byKind, sums, [heating]] = await Promise.all([
      countBy(req, 'newEnergyPower', 'kind'),
      resource.db
        .select({
          kind: newEnergyPower.kind,
          power: sql<number>`coalesce(sum(${newEnergyPower.ratedPower}), 0)::float8`,
          energy: sql<number>`coalesce(sum(${newEnergyPower.energy}), 0)::float8`,
        })
        .from(newEnergyPower)
        .where(scope)
        .groupBy(newEnergyPower.kind),
      resource.db
        .select({
          n: sql<number>`count(*)::int`,
          energy: sql<number>`coalesce(sum(${newEnergyHeating.energy}), 0)::float8`,
        })
        .from(newEnergyHeating)
        .where(await readableRows('newEnergyHeating', ctx)),
    ]);
    const kinds = byKind.map((k) => {
      const s = sums.find((x) => x.kind === k.key);
      return { ...k, power: Number(s?.power ?? 0), energy: Number(s?.energy ?? 0) };
    });
    return {
      devices: kinds.reduce((a, k) => a + k.value, 0),
      power: Math.round(kinds.reduce((a, k) => a + k.power, 0) * 100) / 100,
      energy: Math.round(kinds.reduce((a, k) => a + k.energy, 0) * 100) / 100,
      byKind: kinds,
      heating: { records: Number(heating?.n ?? 0), energy: Number(heating?.energy ?? 0) },
    };
  },
});

/** the device within the caller's reach, or "not found" */
async function reachable(db: Db, scope: ReturnType<typeof sql>, id: string) {
  const [row] = await db
    .select({ id: newEnergyPower.id, photos: newEnergyPower.photos })
    .from(newEnergyPower)
    .where(and(scope, eq(newEnergyPower.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return { id: String(row.id), photos: row.photos ? String(row.photos).split(',') : [] };
}

/** `newEnergyPower/get/photo?id=`: a device's photos (paths the storage layer serves). */
const getPhoto = endpoint({
  method: 'GET',
  path: 'get/photo',
  query: z.object({ id: idString }).strict(),
  async handler({ resource, scope, query }) {
    return reachable(resource.db, scope, query.id);
  },
});

const MAX_PHOTOS = 9;
/** a business image's stored name (the upload `file/image` keeps them under `village/`) */
const IMAGE_NAME = /^\/api\/dfem-hope-manage\/file\/image\/([0-9a-f-]{36}\.(?:png|jpg))$/;

/**
 * `newEnergyPower/save/photo?id=&photo=` (GET, as the spec has it): adds a photo the upload issued
 * (`file/image`, found in storage) to a device, through the resource's write path. Asks for the edit code.
 */
const savePhoto = endpoint({
  method: 'GET',
  path: 'save/photo',
  codeSuffix: '_edit',
  query: z.object({ id: idString, photo: z.string().max(255) }).strict(),
  async handler({ req, resource, scope, ctx, query }) {
    const m = IMAGE_NAME.exec(query.photo);
    if (
      !ISSUED_IMAGE_PATH.test(query.photo) ||
      !m ||
      !(await req.server.storageConfigs.exists(query.photo, `village/${m[1]}`))
    )
      throw new FieldInputError('photo', { zh: '图片不存在,请先上传', en: 'No such image: upload it first' });
    const dev = await reachable(resource.db, scope, query.id);
    const photos = [...dev.photos.filter((p) => p !== query.photo), query.photo].slice(-MAX_PHOTOS);
    const row = await updateRow(resource, ctx, resource.db, dev.id, { photos: photos.join(',') }, scope);
    if (!row) throw notFound();
    resource.changed();
    return { id: dev.id, photos };
  },
});

/** `video/list?stationId=`: a station's cameras (all of them, for its page's players). */
const videoList = endpoint({
  method: 'GET',
  path: 'list',
  query: z.object({ stationId: idString.optional() }).strict(),
  async handler({ resource, scope, query }) {
    const rows = await resource.db
      .select({
        id: powerVideo.id,
        name: powerVideo.name,
        stationId: powerVideo.stationId,
        place: powerVideo.place,
        streamUrl: powerVideo.streamUrl,
        streamKind: powerVideo.streamKind,
        online: powerVideo.online,
      })
      .from(powerVideo)
      .where(and(scope, query.stationId ? eq(powerVideo.stationId, query.stationId) : undefined))
      .orderBy(asc(powerVideo.name), asc(powerVideo.id))
      .limit(500);
    return rows.map((r) => ({
      ...r,
      id: String(r.id),
      stationId: String(r.stationId),
      place: r.place ?? null,
      streamKind: String(r.streamKind ?? ''),
      codec: '1',
      online: Number(r.online ?? 0),
    }));
  },
});

/** Every power resource's table and hooks, for modules/resources.ts. */
export function powerHooks(db: Db): Record<string, ResourceHooks> {
  return {
    powerStationProfit: { ...profitHooks(db), endpoints: [statementExport] },
    newEnergyPower: { endpoints: [devicePage, statistics, getPhoto, savePhoto] },
    powerVideo: { endpoints: [videoList] },
  };
}
