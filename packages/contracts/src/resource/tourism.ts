import { dictCodes, dictionary, numbered } from './dicts';
import { area, date, dict, flag, money, phone, ref, refs, remark, text } from './fields';
import { areaResource, defineArea, type FieldDef, L, type Text2 } from './types';

/**
 * 乡村旅游 (spec §1 "Tourism presets", §7 dfem-hope-manage `tourismPresets`): the village's points of interest
 * on the map (attractions, homestays, farm-stay restaurants, local produce shops), routes drawn through them
 * (their length in km computed from the line), bookable time slots of a place with a capacity, and the
 * bookings that take their seats, each with a redemption code the counter verifies (核销). Domain:
 * shared/design/domain.md "Tourism, points mall, carousel".
 */

export const TOURISM_DICTS = [
  dictionary(
    'tourism_preset_type',
    L('旅游预设类型', 'Tourism place type'),
    numbered([
      ['景点', 'Attraction'],
      ['民宿', 'Homestay'],
      ['农家乐', 'Farm stay restaurant'],
      ['特产店', 'Local produce shop'],
    ]),
  ),
  dictionary(
    'tourism_booking_state',
    L('预约状态', 'Booking state'),
    numbered([
      ['待到访', 'Awaiting visit'],
      ['已核销', 'Verified'],
      ['已取消', 'Cancelled'],
    ]),
  ),
];

/** What a field names its dictionary by: `TOURISM_DICT.<code>`. */
export const TOURISM_DICT = dictCodes(TOURISM_DICTS);

/** A booking's states (tourism_booking_state). */
export const BOOKING_STATE = { awaiting: '1', verified: '2', cancelled: '3' } as const;

/** A place's types (tourism_preset_type). */
export const PRESET_TYPE = { attraction: '1', homestay: '2', farmStay: '3', produceShop: '4' } as const;

/** Rows the demo seed always creates (tenant 000000): generated tests reference them as valid samples. */
export const TOURISM_DEMO = {
  presetId: '1190000000002600001',
  preset2Id: '1190000000002600002',
  routeId: '1190000000002610001',
  /** a slot far ahead with room for every generated test's booking */
  slotId: '1190000000002620001',
  bookingId: '1190000000002630001',
} as const;

/** The length in km of a route's line (geo.ts: the same for every polyline field). */
export { lineKilometres } from './geo';

/** A clock time of a slot: 09:00 … 23:59. */
export const CLOCK_TIME = '^([01]\\d|2[0-3]):[0-5]\\d$';

/** Seats a slot has left. */
export const slotRemaining = (slot: { capacity?: unknown; booked?: unknown }): number =>
  Math.max(0, Number(slot.capacity ?? 0) - Number(slot.booked ?? 0));

/** A slot's name, as its picker and its bookings show it: 竹溪民宿 2026-12-01 09:00-11:00. */
export const slotName = (place: string, day: string, start: string, end: string): string =>
  `${place} ${day} ${start}-${end}`;

/** Refusals both ends word once. */
export const TOURISM_MESSAGES = {
  full: L('名额不足,剩余 {n} 人', 'Only {n} places left'),
  belowBooked: L('容量不能小于已预约人数 {n}', 'The capacity cannot be below the {n} places already booked'),
  endBeforeStart: L('结束时间须晚于开始时间', 'The end time must be after the start time'),
  slotStarted: L('时段已开始,不能取消预约', 'The slot has started: the booking can no longer be cancelled'),
  badCode: L('核销码格式不正确', 'The redemption code is not valid'),
  used: L('该预约已核销,不能重复核销', 'This booking has already been verified'),
  cancelled: L('该预约已取消,不能核销', 'This booking was cancelled and cannot be verified'),
  slotHasBookings: L(
    '该时段还有待到访的预约,不能删除',
    'The slot still has bookings awaiting their visit and cannot be removed',
  ),
  notAwaiting: L('只有待到访的预约可以取消', 'Only a booking awaiting its visit can be cancelled'),
} as const satisfies Record<string, Text2>;

const SERVICE = 'dfem-hope-manage';
const resource = areaResource(SERVICE, 'tourism');

const clock = (name: string, label: Text2): FieldDef =>
  text(name, label, 5, {
    required: true,
    pattern: CLOCK_TIME,
    example: name === 'endTime' ? '11:00' : '09:00',
    patternMessage: L(
      `${label.zh}格式应为 时:分,如 09:30`,
      `${label.en} must read hours:minutes, e.g. 09:30`,
    ),
  });

/** 旅游预设: a place on the map (spec's `tourismPresets`: page, submit, remove). */
export const tourismPresetsResource = resource(
  'tourismPresets',
  'hope_tourism_preset',
  'EnvironmentOutlined',
  L('旅游预设', 'Tourism places'),
  'presets',
  'tourism_presets',
  [
    dict('type', L('类型', 'Type'), TOURISM_DICT.tourism_preset_type, { required: true, search: 'equal' }),
    text('name', L('名称', 'Name'), 60, { required: true, search: 'like' }),
    {
      name: 'location',
      label: L('位置', 'Location'),
      type: 'geoPoint',
      required: true,
      example: '112.905421,28.211306',
    },
    text('address', L('地址', 'Address'), 200),
    text('openHours', L('开放时间', 'Opening hours'), 60, { example: '08:30-17:30' }),
    money('price', L('价格', 'Price'), { max: 100_000 }),
    { name: 'images', label: L('图片', 'Images'), type: 'image', max: 2000, list: false, excel: false },
    phone('phone', L('联系电话', 'Phone')),
    area('intro', L('简介', 'Introduction'), 2000),
    flag('enabled', L('启用', 'Enabled'), { default: 1, search: 'equal' }),
  ],
  { unique: ['name'], select: { label: 'name', search: ['name'] } },
);

/** 旅游线路: a line drawn on the map through the places; its length in km follows from the line. */
export const tourismRouteResource = resource(
  'tourismRoute',
  'hope_tourism_route',
  'NodeIndexOutlined',
  L('旅游线路', 'Tourism routes'),
  'route',
  'tourism_route',
  [
    text('name', L('线路名称', 'Route'), 60, { required: true, search: 'like' }),
    {
      name: 'points',
      label: L('线路轨迹', 'Route line'),
      type: 'polyline',
      required: true,
      span: 24,
    },
    {
      name: 'lengthKm',
      label: L('线路长度', 'Length'),
      type: 'decimal',
      unit: L('公里', 'km'),
      readOnly: true,
      excel: true,
    },
    refs('stops', L('途经地点', 'Stops'), 'tourismPresets', TOURISM_DEMO.presetId),
    area('intro', L('线路介绍', 'Description'), 2000),
    flag('enabled', L('启用', 'Enabled'), { default: 1, search: 'equal' }),
  ],
  { unique: ['name'], select: { label: 'name', search: ['name'] } },
);

/** 预约时段: a place's bookable slot with its capacity; `booked` is kept by the bookings' writes. */
export const tourismSlotResource = resource(
  'tourismSlot',
  'hope_tourism_slot',
  'CalendarOutlined',
  L('预约时段', 'Booking slots'),
  'slot',
  'tourism_slot',
  [
    ref('presetId', L('预约地点', 'Place'), 'tourismPresets', TOURISM_DEMO.presetId, { required: true }),
    date('day', L('日期', 'Date'), { required: true, search: 'equal' }),
    clock('startTime', L('开始时间', 'Start time')),
    clock('endTime', L('结束时间', 'End time')),
    { name: 'capacity', label: L('容量', 'Capacity'), type: 'int', min: 1, max: 100_000, required: true },
    {
      name: 'booked',
      label: L('已预约', 'Booked'),
      type: 'int',
      readOnly: true,
      default: 0,
      unit: L('人', 'people'),
    },
    {
      name: 'remaining',
      label: L('剩余名额', 'Places left'),
      type: 'int',
      readOnly: true,
      beside: true,
      sortable: false,
      excel: false,
    },
    // the slot's name (place, day and clock times), written by the server: how pickers and bookings name it
    text('name', L('时段', 'Slot'), 120, { readOnly: true, list: false, view: false, excel: false }),
  ],
  {
    unique: [['presetId', 'day', 'startTime']],
    defaultSort: { field: 'day', desc: true },
    select: { label: 'name', search: ['name'] },
  },
);

/** 预约记录: a visitor's booking of N places in a slot, with its redemption code. */
export const tourismBookingResource = resource(
  'tourismBooking',
  'hope_tourism_booking',
  'ScheduleOutlined',
  L('预约记录', 'Bookings'),
  'booking',
  'tourism_booking',
  [
    ref('slotId', L('预约时段', 'Slot'), 'tourismSlot', TOURISM_DEMO.slotId, { required: true }),
    text('visitorName', L('游客姓名', 'Visitor'), 30, { required: true, search: 'like' }),
    phone('phone', L('联系电话', 'Phone'), { required: true }),
    { name: 'people', label: L('人数', 'People'), type: 'int', min: 1, max: 999, required: true },
    dict('state', L('状态', 'State'), TOURISM_DICT.tourism_booking_state, {
      readOnly: true,
      search: 'equal',
    }),
    text('code', L('核销码', 'Redemption code'), 10, { readOnly: true, search: 'equal', excel: false }),
    text('verifiedBy', L('核销人', 'Verifier'), 64, { readOnly: true }),
    { name: 'verifiedAt', label: L('核销时间', 'Verified at'), type: 'datetime', readOnly: true },
    remark({ max: 200 }),
  ],
  { unique: ['code'] },
);

/** 乡村旅游: the places, the routes, the slots and the bookings, in menu order. */
export const TOURISM_AREA = defineArea({
  code: 'tourism',
  label: L('乡村旅游', 'Rural tourism'),
  icon: 'SunOutlined',
  resources: [tourismPresetsResource, tourismRouteResource, tourismSlotResource, tourismBookingResource],
  buttons: {
    tourismBooking: [
      { code: 'verify', label: L('核销', 'Verify') },
      { code: 'cancel', label: L('取消预约', 'Cancel booking') },
    ],
  },
  dicts: TOURISM_DICTS,
});
