import { BOOKING_STATE, lineKilometres, PRESET_TYPE, slotName, TOURISM_DEMO } from '@smart/contracts';
import type { Db } from '../../platform/db';
import { today as serverToday } from '../../platform/format';
import { newRedeemCode } from '../../platform/redeem';
import { insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import { tourismBooking, tourismPreset, tourismRoute, tourismSlot } from './tables';

/** The demo's ids beyond TOURISM_DEMO's (the 11900000000026xxxxx range). */
const ID = {
  preset: (n: number) => `11900000000026000${String(n).padStart(2, '0')}`,
  slot: (n: number) => `11900000000026200${String(n).padStart(2, '0')}`,
  booking: (n: number) => `11900000000026300${String(n).padStart(2, '0')}`,
} as const;

/** The village's places, around the demo plots west of Changsha (28.2°N 112.9°E). */
const PLACES = [
  {
    type: PRESET_TYPE.attraction,
    name: '东湾稻田观景台',
    location: '112.900612,28.201458',
    address: '东湾组稻田北侧',
    openHours: '08:00-18:00',
    price: '0.00',
    intro: '俯瞰东湾一号田与合作社示范片的观景台,春季油菜花、秋季稻浪。',
  },
  {
    type: PRESET_TYPE.homestay,
    name: '竹溪民宿',
    location: '112.902913,28.200732',
    address: '竹溪组 8 号',
    openHours: '全天',
    price: '268.00',
    phone: '0731-84561234',
    intro: '溪边老屋改建的民宿,六间客房,可预约采茶体验。',
  },
  {
    type: PRESET_TYPE.farmStay,
    name: '南坡农家乐',
    location: '112.900307,28.199151',
    address: '南坡茶园入口',
    openHours: '10:00-21:00',
    price: '68.00',
    phone: '13807310001',
    intro: '自种蔬菜、土鸡与茶园风光,可承接二十人团餐。',
  },
  {
    type: PRESET_TYPE.produceShop,
    name: '村集体特产店',
    location: '112.901845,28.199802',
    address: '村委会旁',
    openHours: '09:00-17:30',
    price: '0.00',
    phone: '0731-84567788',
    intro: '本村茶叶、菜籽油、腊肉与手工米粉。',
  },
];

/** The walk from the viewing platform past the homestay to the farm stay and the shop. */
const ROUTE: [number, number][] = [
  [112.900612, 28.201458],
  [112.901702, 28.201203],
  [112.902913, 28.200732],
  [112.902354, 28.199926],
  [112.901845, 28.199802],
  [112.900307, 28.199151],
];

/**
 * 乡村旅游's demo (tenant 000000): four places, one walking route through them (its length from its line),
 * bookable slots of the homestay and the farm stay in the days to come — one far ahead with room for
 * anyone — and bookings of them: awaiting, verified and cancelled, each slot's `booked` the places its
 * bookings hold (a visit to come or verified; a cancelled one gave its places back). Dated from today.
 */
export async function seedTourism(db: Db) {
  const tenantId = '000000';
  const base = { tenantId, createUser: SEED.adminUserId, createDept: SEED.rootDeptId };
  const today = serverToday();
  const day = (offset: number) =>
    new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

  const presetIds = [TOURISM_DEMO.presetId, TOURISM_DEMO.preset2Id, ID.preset(3), ID.preset(4)];
  await insertAll(
    db,
    tourismPreset,
    PLACES.map((p, i) => ({ ...base, id: presetIds[i], enabled: 1, ...p })),
  );
  await insertAll(db, tourismRoute, [
    {
      ...base,
      id: TOURISM_DEMO.routeId,
      name: '稻田茶园半日游',
      points: JSON.stringify(ROUTE),
      lengthKm: (lineKilometres(ROUTE) ?? 0).toFixed(2),
      stops: presetIds.join(','),
      intro: '从稻田观景台出发,经竹溪民宿、村集体特产店,到南坡农家乐用午餐。',
      enabled: 1,
    },
  ]);

  const place = (id: string) => PLACES[presetIds.indexOf(id)].name;
  const slots = [
    // far ahead, with room for anyone (the generated tests book it)
    {
      id: TOURISM_DEMO.slotId,
      presetId: TOURISM_DEMO.preset2Id,
      day: day(365),
      start: '09:00',
      end: '11:00',
      capacity: 100_000,
    },
    {
      id: ID.slot(2),
      presetId: TOURISM_DEMO.preset2Id,
      day: day(1),
      start: '09:00',
      end: '11:00',
      capacity: 12,
    },
    {
      id: ID.slot(3),
      presetId: TOURISM_DEMO.preset2Id,
      day: day(1),
      start: '14:00',
      end: '16:00',
      capacity: 12,
    },
    { id: ID.slot(4), presetId: ID.preset(3), day: day(2), start: '11:00', end: '13:30', capacity: 20 },
    { id: ID.slot(5), presetId: ID.preset(3), day: day(-1), start: '11:00', end: '13:30', capacity: 20 },
  ];
  const bookings = [
    {
      id: TOURISM_DEMO.bookingId,
      slotId: ID.slot(2),
      visitorName: '王小明',
      phone: '13907310021',
      people: 3,
      state: BOOKING_STATE.awaiting,
    },
    {
      id: ID.booking(2),
      slotId: ID.slot(2),
      visitorName: '李芳',
      phone: '13807310022',
      people: 2,
      state: BOOKING_STATE.awaiting,
    },
    {
      id: ID.booking(3),
      slotId: ID.slot(3),
      visitorName: '赵磊',
      phone: '13707310023',
      people: 4,
      state: BOOKING_STATE.cancelled,
    },
    {
      id: ID.booking(4),
      slotId: ID.slot(4),
      visitorName: '陈静',
      phone: '13607310024',
      people: 6,
      state: BOOKING_STATE.awaiting,
    },
    {
      id: ID.booking(5),
      slotId: ID.slot(5),
      visitorName: '刘洋',
      phone: '13507310025',
      people: 5,
      state: BOOKING_STATE.verified,
    },
  ];
  const booked = (slotId: string) =>
    bookings
      .filter((b) => b.slotId === slotId && b.state !== BOOKING_STATE.cancelled)
      .reduce((n, b) => n + b.people, 0);
  await insertAll(
    db,
    tourismSlot,
    slots.map((s) => ({
      ...base,
      id: s.id,
      presetId: s.presetId,
      day: s.day,
      startTime: s.start,
      endTime: s.end,
      capacity: s.capacity,
      booked: booked(s.id),
      name: slotName(place(s.presetId), s.day, s.start, s.end),
    })),
  );
  const verifiedAt = new Date(Date.parse(`${day(-1)}T04:00:00Z`));
  await insertAll(
    db,
    tourismBooking,
    bookings.map((b) => ({
      ...base,
      ...b,
      code: newRedeemCode(),
      ...(b.state === BOOKING_STATE.verified ? { verifiedBy: 'admin', verifiedAt } : {}),
    })),
  );
}
