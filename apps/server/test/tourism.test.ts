import { BOOKING_STATE, lineKilometres, TOURISM_DEMO } from '@smart/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tourismBooking, tourismSlot } from '../src/modules/tourism/tables';
import { areaServer, grantCodes, listedRows, makeRole, serviceCalls, signedInUser } from './fixtures';
import type { TestServer } from './harness';

/**
 * 乡村旅游: a route's length is the server's, from its line; a slot's places are never oversold — one
 * conditional update in the booking's transaction, racers included —, given back when a booking is
 * cancelled; a booking is verified once by its code, within the caller's tenant and codes; bad input is a
 * 400, never a 500.
 */
let s: TestServer;
let token: string;
let other: string;
beforeAll(async () => {
  ({ s, token, other } = await areaServer(['200041', '旅游他村', 'tourismOther']));
});
afterAll(() => s.close());

const API = '/api/dfem-hope-manage';
const { get, post } = serviceCalls(
  () => s,
  API,
  () => token,
);

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
let n = 0;
/** a new slot of the demo homestay, `capacity` places, some days ahead */
async function newSlot(capacity: number) {
  const res = await post('/tourismSlot/submit', {
    presetId: TOURISM_DEMO.preset2Id,
    day: day(10 + ++n),
    startTime: '09:00',
    endTime: '11:30',
    capacity,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: string; name: string; booked: number };
}
const book = (slotId: string, people: number, tk = token) =>
  post('/tourismBooking/submit', { slotId, visitorName: `游客${++n}`, phone: '13907310001', people }, tk);
const slotRow = async (id: string) =>
  (await s.database.db.select().from(tourismSlot).where(eq(tourismSlot.id, id)))[0] as {
    booked: number;
    capacity: number;
  };

describe('the spec’s calls of tourismPresets', () => {
  it('page, submit and remove?ids= answer under dfem-hope-manage', async () => {
    const page = await get('/tourismPresets/page?current=1&size=10');
    expect(page.statusCode, page.body).toBe(200);
    expect(listedRows(page.json().data).map((r) => r.id)).toContain(TOURISM_DEMO.presetId);
    const added = await post('/tourismPresets/submit', {
      type: '2',
      name: '测试民宿',
      location: '112.9031,28.2012',
      price: 188,
      phone: '0731-84561234',
      enabled: 1,
    });
    expect(added.statusCode, added.body).toBe(200);
    const removed = await post(`/tourismPresets/remove?ids=${added.json().data.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    // a place needs its location
    const bad = await post('/tourismPresets/submit', { type: '1', name: '无位置' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.field).toBe('location');
  });
});

describe('routes', () => {
  const line: [number, number][] = [
    [112.9, 28.2],
    [112.91, 28.2],
    [112.91, 28.21],
  ];
  it('the stored length is lineKilometres(points), whatever the client sent', async () => {
    const res = await post('/tourismRoute/submit', {
      name: '测试线路',
      points: JSON.stringify(line),
      lengthKm: 999,
      stops: `${TOURISM_DEMO.presetId},${TOURISM_DEMO.preset2Id}`,
      enabled: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json().data;
    expect(Number(row.lengthKm)).toBe(lineKilometres(line));
    // about 0.98 km east, then 1.11 km north
    expect(Number(row.lengthKm)).toBeGreaterThan(2);
    expect(Number(row.lengthKm)).toBeLessThan(2.2);
    const longer = [...line, [112.92, 28.21]];
    const edited = await post('/tourismRoute/submit', {
      id: row.id,
      points: JSON.stringify(longer),
      lengthKm: 1,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(Number(edited.json().data.lengthKm)).toBe(lineKilometres(longer));
    const detail = await get(`/tourismRoute/detail?id=${row.id}`);
    expect(Number(detail.json().data.lengthKm)).toBe(lineKilometres(longer));
    // the stops' names listed as each language lists them
    const names = (lang: string) =>
      get(`/tourismRoute/page?current=1&size=100`, token, lang).then(
        (r) => listedRows(r.json().data).find((x) => x.id === row.id)?.stopsName,
      );
    const zh = await names('zh');
    expect(zh).toMatch(/^[^,、]+、[^,、]+$/);
    expect(await names('en')).toBe(String(zh).replace('、', ', '));
  });

  it('a line of one point, or not a line, is a 400 naming the field', async () => {
    for (const points of ['[[112.9,28.2]]', '[[112.9,28.2', '[[200,28.2],[112.9,28.2]]', '"x"']) {
      const res = await post('/tourismRoute/submit', { name: `坏线路${++n}`, points });
      expect(res.statusCode, points).toBe(400);
      expect(res.json().data.field).toBe('points');
    }
  });
});

describe('slots and bookings', () => {
  it('a slot of 9 takes 5, refuses 5 more (4 left), and takes them once the first is cancelled', async () => {
    const slot = await newSlot(9);
    expect(slot.name).toContain('竹溪民宿');
    const first = await book(slot.id, 5);
    expect(first.statusCode, first.body).toBe(200);
    const booking = first.json().data;
    expect(booking.state).toBe(BOOKING_STATE.awaiting);
    expect(booking.code).toMatch(/^[0-9A-Z]{10}$/);
    expect((await slotRow(slot.id)).booked).toBe(5);

    const second = await book(slot.id, 5);
    expect(second.statusCode).toBe(400);
    expect(second.json().msg).toBe('名额不足,剩余 4 人');
    const en = await post(
      '/tourismBooking/submit',
      { slotId: slot.id, visitorName: '游客', phone: '13907310001', people: 5 },
      token,
      'en',
    );
    expect(en.json().msg).toBe('Only 4 places left');
    expect((await slotRow(slot.id)).booked).toBe(5);

    const page = listedRows((await get('/tourismSlot/page?current=1&size=100')).json().data);
    expect(page.find((r) => r.id === slot.id)?.remaining).toBe(4);

    const cancelled = await post('/tourismBooking/cancel', { id: booking.id });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data.state).toBe(BOOKING_STATE.cancelled);
    expect((await slotRow(slot.id)).booked).toBe(0);
    // a cancelled booking is not cancelled twice (its places are not given back twice)
    expect((await post('/tourismBooking/cancel', { id: booking.id })).statusCode).toBe(400);
    expect((await slotRow(slot.id)).booked).toBe(0);

    const again = await book(slot.id, 5);
    expect(again.statusCode, again.body).toBe(200);
    expect((await slotRow(slot.id)).booked).toBe(5);
  });

  it('10 concurrent bookings of 2 on 9 places: exactly 4 succeed, 8 booked', async () => {
    const slot = await newSlot(9);
    const results = await Promise.all(Array.from({ length: 10 }, () => book(slot.id, 2)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(4);
    expect(codes.filter((c) => c === 400)).toHaveLength(6);
    expect((await slotRow(slot.id)).booked).toBe(8);
    const live = await s.database.db.select().from(tourismBooking).where(eq(tourismBooking.slotId, slot.id));
    expect(live).toHaveLength(4);
  });

  it('a slot’s capacity is never below what is booked; its end follows its start', async () => {
    const slot = await newSlot(10);
    expect((await book(slot.id, 6)).statusCode).toBe(200);
    const below = await post('/tourismSlot/submit', { id: slot.id, capacity: 5 });
    expect(below.statusCode).toBe(400);
    expect(below.json().data.field).toBe('capacity');
    expect(below.json().msg).toBe('容量不能小于已预约人数 6');
    expect((await post('/tourismSlot/submit', { id: slot.id, capacity: 6 })).statusCode).toBe(200);
    // booked is the server's: a client's value is never read
    const sent = await post('/tourismSlot/submit', { id: slot.id, booked: 0 });
    expect(sent.statusCode).toBe(200);
    expect((await slotRow(slot.id)).booked).toBe(6);
    const backwards = await post('/tourismSlot/submit', { id: slot.id, endTime: '08:00' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().data.field).toBe('endTime');
    // a slot with bookings awaiting their visit stays
    expect((await post(`/tourismSlot/remove?ids=${slot.id}`)).statusCode).toBe(400);
  });

  it('a booking of a slot that has started cannot be cancelled', async () => {
    const res = await post('/tourismSlot/submit', {
      presetId: TOURISM_DEMO.presetId,
      day: day(-1),
      startTime: '09:00',
      endTime: '10:00',
      capacity: 5,
    });
    expect(res.statusCode, res.body).toBe(200);
    const booking = (await book(res.json().data.id, 1)).json().data;
    const cancel = await post('/tourismBooking/cancel', { id: booking.id });
    expect(cancel.statusCode).toBe(400);
    expect(cancel.json().msg).toBe('时段已开始,不能取消预约');
  });

  it('a booking edited to more people or another slot moves its places, or is refused with nothing moved', async () => {
    const slot = await newSlot(5);
    const other = await newSlot(3);
    const b = (await book(slot.id, 2)).json().data;
    expect((await post('/tourismBooking/submit', { id: b.id, people: 4 })).statusCode).toBe(200);
    expect((await slotRow(slot.id)).booked).toBe(4);
    const tooMany = await post('/tourismBooking/submit', { id: b.id, people: 6 });
    expect(tooMany.statusCode).toBe(400);
    // the 4 it holds and the 1 left are what it could have
    expect(tooMany.json().msg).toBe('名额不足,剩余 5 人');
    expect((await slotRow(slot.id)).booked).toBe(4);
    const moved = await post('/tourismBooking/submit', { id: b.id, slotId: other.id, people: 3 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await slotRow(slot.id)).booked).toBe(0);
    expect((await slotRow(other.id)).booked).toBe(3);
    // a remark changes no places
    expect((await post('/tourismBooking/submit', { id: b.id, remark: '带老人' })).statusCode).toBe(200);
    expect((await slotRow(other.id)).booked).toBe(3);
  });

  it('removing a booking awaiting its visit gives its places back', async () => {
    const slot = await newSlot(4);
    const b = (await book(slot.id, 3)).json().data;
    expect((await slotRow(slot.id)).booked).toBe(3);
    expect((await post(`/tourismBooking/remove?ids=${b.id}`)).statusCode).toBe(200);
    expect((await slotRow(slot.id)).booked).toBe(0);
  });
});

describe('the demo', () => {
  it('every seeded slot’s booked is the places its bookings hold (cancelled ones none)', async () => {
    const slots = await s.database.db.select().from(tourismSlot).where(eq(tourismSlot.tenantId, '000000'));
    const bookings = await s.database.db
      .select()
      .from(tourismBooking)
      .where(eq(tourismBooking.tenantId, '000000'));
    const seeded = slots.filter((x) => String(x.id).startsWith('11900000000026'));
    expect(seeded.length).toBeGreaterThanOrEqual(5);
    for (const slot of seeded) {
      const held = bookings
        .filter((b) => b.slotId === slot.id && b.state !== BOOKING_STATE.cancelled && b.isDeleted === 0)
        .reduce((n, b) => n + Number(b.people), 0);
      expect(Number(slot.booked), String(slot.name)).toBe(held);
    }
  });
});

describe('verify (核销) by code', () => {
  it('moves the booking to 已核销 once; a second verify is refused', async () => {
    const slot = await newSlot(5);
    const b = (await book(slot.id, 2)).json().data;
    // typed as a clerk types it: lower case, with a dash
    const typed = `${b.code.slice(0, 5).toLowerCase()}-${b.code.slice(5)}`;
    const ok = await post('/tourismBooking/verify', { code: typed });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.state).toBe(BOOKING_STATE.verified);
    expect(ok.json().data.stateName).toBe('已核销');
    expect(ok.json().data.verifiedBy).toBe('admin');
    expect(ok.json().data.verifiedAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const twice = await post('/tourismBooking/verify', { code: b.code });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().msg).toBe('该预约已核销,不能重复核销');
    // a verified visit keeps its places; it can no longer be cancelled
    expect((await slotRow(slot.id)).booked).toBe(2);
    expect((await post('/tourismBooking/cancel', { id: b.id })).statusCode).toBe(400);
  });

  it('a cancelled booking is refused; a bad code is a 400; an unknown one a 404', async () => {
    const slot = await newSlot(5);
    const b = (await book(slot.id, 1)).json().data;
    await post('/tourismBooking/cancel', { id: b.id });
    const cancelled = await post('/tourismBooking/verify', { code: b.code });
    expect(cancelled.statusCode).toBe(400);
    expect(cancelled.json().msg).toBe('该预约已取消,不能核销');
    for (const code of ['', 'abc', 'UUUUUUUUUU', '!!!!!!!!!!']) {
      const bad = await post('/tourismBooking/verify', { code });
      expect(bad.statusCode, code).toBe(400);
      expect(bad.json().data.field).toBe('code');
    }
    expect((await post('/tourismBooking/verify', { code: 123 })).statusCode).toBe(400);
    expect((await post('/tourismBooking/verify', { code: '0000000000' })).statusCode).toBe(404);
  });

  it('the QR of a booking answers its code as a PNG data URL', async () => {
    const qr = await get(`/tourismBooking/qr?id=${TOURISM_DEMO.bookingId}`);
    expect(qr.statusCode, qr.body).toBe(200);
    expect(qr.json().data.image).toMatch(/^data:image\/png;base64,/);
    expect(qr.json().data.code).toMatch(/^[0-9A-Z]{10}$/);
  });
});

describe('isolation, codes and bad input', () => {
  it('another tenant’s booking id and code are not found', async () => {
    const slot = await newSlot(5);
    const b = (await book(slot.id, 1)).json().data;
    expect((await post('/tourismBooking/verify', { code: b.code }, other)).statusCode).toBe(404);
    expect((await post('/tourismBooking/cancel', { id: b.id }, other)).statusCode).toBe(404);
    expect((await get(`/tourismBooking/qr?id=${b.id}`, other)).statusCode).toBe(404);
    expect((await get(`/tourismBooking/detail?id=${b.id}`, other)).statusCode).toBe(404);
    // nor may it book this tenant's slot
    expect((await book(slot.id, 1, other)).statusCode).toBe(400);
    expect((await slotRow(slot.id)).booked).toBe(1);
  });

  it('verify and cancel need their button codes', async () => {
    const role = await makeRole(s.database.db, '000000', 'tourismClerk');
    await grantCodes(s.database.db, role, ['tourism_booking', 'tourism_booking_view']);
    const clerk = (await signedInUser(s, 'tourismClerk', [role])).token;
    const slot = await newSlot(5);
    const b = (await book(slot.id, 1)).json().data;
    expect((await post('/tourismBooking/verify', { code: b.code }, clerk)).statusCode).toBe(403);
    expect((await post('/tourismBooking/cancel', { id: b.id }, clerk)).statusCode).toBe(403);
    expect((await get(`/tourismBooking/qr?id=${b.id}`, clerk)).statusCode).toBe(200);
    await grantCodes(s.database.db, role, [
      'tourism_booking',
      'tourism_booking_view',
      'tourism_booking_verify',
    ]);
    expect((await post('/tourismBooking/verify', { code: b.code }, clerk)).statusCode).toBe(200);
  });

  it('negative, zero or fractional people, a bad slot, bad clock times: 400, never 500', async () => {
    const slot = await newSlot(5);
    for (const people of [-1, 0, 1.5, 'x', 1000]) {
      const res = await book(slot.id, people as number);
      expect(res.statusCode, String(people)).toBe(400);
      expect(res.json().data.field).toBe('people');
    }
    expect((await book('abc', 1)).statusCode).toBe(400);
    expect((await book('1190000000099999999', 1)).statusCode).toBe(400);
    const clock = await post('/tourismSlot/submit', {
      presetId: TOURISM_DEMO.presetId,
      day: day(3),
      startTime: '25:00',
      endTime: '26:00',
      capacity: 3,
    });
    expect(clock.statusCode).toBe(400);
    expect(clock.json().data.field).toBe('startTime');
    const zero = await post('/tourismSlot/submit', {
      presetId: TOURISM_DEMO.presetId,
      day: day(3),
      startTime: '08:00',
      endTime: '09:00',
      capacity: 0,
    });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().data.field).toBe('capacity');
    expect((await slotRow(slot.id)).booked).toBe(0);
    // a booking's state and code are the server's
    const sent = await post('/tourismBooking/submit', {
      slotId: slot.id,
      visitorName: '游客',
      phone: '13907310001',
      people: 1,
      state: BOOKING_STATE.verified,
      code: 'AAAAAAAAAA',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data.state).toBe(BOOKING_STATE.awaiting);
    expect(sent.json().data.code).not.toBe('AAAAAAAAAA');
  });
});
