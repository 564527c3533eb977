import { z } from 'zod';
import { dictCodes, dictionary, numbered } from './dicts';
import { date, dict, ref, remark, text } from './fields';
import { SAFETY_DEMO, SAFETY_DICT } from './safety';
import { SERIAL_PATTERN } from './telemetry';
import { areaResource, defineArea, type FieldDef, L, type Text2 } from './types';

/** The PV stations' dictionaries (seed step power-v1). */
export const POWER_DICTS = [
  dictionary(
    'power_protocol',
    L('通讯协议', 'Protocol'),
    numbered([
      ['Modbus RTU', 'Modbus RTU'],
      ['Modbus TCP', 'Modbus TCP'],
      ['IEC 104', 'IEC 104'],
      ['MQTT', 'MQTT'],
    ]),
  ),
  dictionary(
    'power_equipment_state',
    L('设备状态', 'Equipment state'),
    numbered([
      ['在用', 'In use'],
      ['停用', 'Out of use'],
      ['维修', 'Under repair'],
    ]),
  ),
  dictionary(
    'new_energy_kind',
    L('新能源设备类型', 'New-energy device kind'),
    numbered([
      ['空气源热泵', 'Heat pump'],
      ['储能', 'Storage'],
      ['充电桩', 'Charger'],
    ]),
  ),
  dictionary(
    'power_code_type',
    L('采集配置类型', 'Settings type'),
    numbered([
      ['逆变器', 'Inverter'],
      ['采集器', 'Collector'],
      ['电表', 'Meter'],
    ]),
  ),
];

/** What a field names its dictionary by: `POWER_DICT.<code>` (a code not declared above does not compile). */
export const POWER_DICT = dictCodes(POWER_DICTS);

/**
 * Photovoltaic and new-energy stations (光伏电站, spec §1; service dfem-hope-power), on the telemetry core:
 * a station's inverters and data collectors are devices of the core (kinds 6 and 7), their readings are the
 * core's readings, their live values the core's device state, their faults the core's alarms. This area
 * adds what is a station's own: the stations, their equipment registers, the yield computed from the
 * inverters' lifetime energy counters (`counterEnergy`), the monthly profit and its distribution to the
 * households by shares (`distribute`), new-energy devices and heating records, station cameras, and the
 * versioned collection settings a collector reads (`code/get`, `code/submit`).
 */

const SERVICE = 'dfem-hope-power';

/** Rows the demo seed always creates (tenant 000000): generated tests reference them as valid samples. */
export const POWER_DEMO = {
  stationId: '1190000000001900001',
  station2Id: '1190000000001900002',
  collectorId: '1190000000001900101',
  collector2Id: '1190000000001900102',
  inverterId: '1190000000001900201',
  newEnergyId: '1190000000001900401',
  /** devices of the core: collectors 1900501–, inverters 1900511– */
  collectorDeviceId: '1190000000001900501',
  silentCollectorDeviceId: '1190000000001900502',
  inverterDeviceId: '1190000000001900511',
  /** the serial of the collector that never reports (the live page's "no data") */
  silentCollectorSerial: 'DC-0002',
} as const;

const resource = areaResource(SERVICE, 'power');
const villagerRef = (name: string, label: Text2, opts: Partial<FieldDef> = {}): FieldDef =>
  ref(name, label, 'villager', SAFETY_DEMO.villagerId, opts);
const stationRef = (opts: Partial<FieldDef> = {}): FieldDef =>
  ref('stationId', L('所属电站', 'Station'), 'powerStation', POWER_DEMO.stationId, {
    required: true,
    ...opts,
  });
const num = (
  name: string,
  label: Text2,
  unit: Text2 | undefined,
  opts: Partial<FieldDef> = {},
): FieldDef => ({ name, label, type: 'decimal', min: 0, max: 1_000_000, unit, ...opts });

const KWH = L('kWh', 'kWh');
/** a tariff in 元/kWh with up to four decimals (0.3949): a decimal column keeps two, so it is a checked text */
const tariff = (opts: Partial<FieldDef> = {}): FieldDef =>
  text('tariff', L('电价(元/kWh)', 'Tariff (CNY/kWh)'), 7, {
    pattern: '^(?:0|[1-9]\\d?)(?:\\.\\d{1,4})?$',
    patternMessage: L(
      '电价为 0-99 元/kWh,至多四位小数',
      'A tariff is 0–99 CNY/kWh with at most four decimals',
    ),
    example: '0.3949',
    ...opts,
  });
const KW = L('kW', 'kW');
const serial = (example: string): FieldDef =>
  text('serial', L('设备序列号', 'Serial'), 40, {
    required: true,
    search: 'like',
    pattern: SERIAL_PATTERN,
    patternMessage: L(
      '序列号为 3-40 位字母、数字、点、下划线或短横线',
      'A serial is 3–40 letters, digits, dots, underscores or hyphens',
    ),
    example,
  });

/** 光伏电站: capacity, place, grid connection, owner (a village collective or a household), tariff. */
export const powerStationResource = resource(
  'powerStation',
  'hope_power_station',
  'ThunderboltOutlined',
  L('光伏电站', 'PV stations'),
  'station',
  'power_station',
  [
    text('name', L('电站名称', 'Name'), 60, { required: true, search: 'like' }),
    num('capacity', L('装机容量', 'Capacity'), L('kWp', 'kWp'), { required: true, example: 100 }),
    { name: 'location', label: L('地图坐标', 'Map point'), type: 'geoPoint', list: false },
    date('gridDate', L('并网日期', 'Grid connection'), { notAfterToday: true }),
    text('ownerVillage', L('所属村集体', 'Owner village'), 60, { search: 'like' }),
    villagerRef('householdId', L('所属农户', 'Owner household'), { search: undefined }),
    tariff({ required: true }),
    remark(),
  ],
  { select: { label: 'name', search: ['name', 'ownerVillage'], hint: 'ownerVillage' } },
);

/** 数据采集器: reads a station's inverters and reports for them; a device of the core (kind 7). */
export const dataCollectorResource = resource(
  'dataCollector',
  'hope_data_collector',
  'ClusterOutlined',
  L('数据采集器', 'Data collectors'),
  'collector',
  'power_collector',
  [
    serial('DC-0101'),
    dict('protocol', L('通讯协议', 'Protocol'), POWER_DICT.power_protocol, {
      required: true,
      search: 'equal',
    }),
    dict('state', L('设备状态', 'State'), POWER_DICT.power_equipment_state, {
      required: true,
      search: 'equal',
      default: '1',
    }),
    stationRef(),
    ref('deviceId', L('接入设备', 'Device'), 'device', POWER_DEMO.collectorDeviceId, {
      list: false,
      search: undefined,
    }),
    remark(),
  ],
  { unique: ['serial'], select: { label: 'serial', search: ['serial'] } },
);

/** 逆变器: its model, rated power and strings; a device of the core (kind 6) reports its readings. */
export const inverterResource = resource(
  'inverter',
  'hope_inverter',
  'ApiOutlined',
  L('逆变器', 'Inverters'),
  'inverter',
  'power_inverter',
  [
    serial('INV-0101'),
    text('model', L('型号', 'Model'), 40, { search: 'like' }),
    num('ratedPower', L('额定功率', 'Rated power'), KW, { required: true, example: 50 }),
    { name: 'strings', label: L('组串数', 'Strings'), type: 'int', min: 1, max: 32, example: 4 },
    { name: 'mppt', label: L('MPPT 数', 'MPPTs'), type: 'int', min: 1, max: 16, example: 2 },
    stationRef(),
    ref('collectorId', L('采集器', 'Collector'), 'dataCollector', POWER_DEMO.collectorId, {
      list: false,
      search: undefined,
    }),
    ref('deviceId', L('接入设备', 'Device'), 'device', POWER_DEMO.inverterDeviceId, {
      list: false,
      search: undefined,
    }),
    dict('state', L('设备状态', 'State'), POWER_DICT.power_equipment_state, {
      required: true,
      search: 'equal',
      default: '1',
    }),
    remark(),
  ],
  { unique: ['serial'], select: { label: 'serial', search: ['serial', 'model'], hint: 'model' } },
);

/** 收益分配份额: how many shares of a station's income a household of its owner village holds. */
export const powerShareResource = resource(
  'powerShare',
  'hope_power_share',
  'TeamOutlined',
  L('收益分配份额', 'Income shares'),
  'share',
  'power_share',
  [
    stationRef(),
    villagerRef('villagerId', L('受益农户', 'Household'), { required: true }),
    {
      name: 'share',
      label: L('份额', 'Shares'),
      type: 'int',
      min: 1,
      max: 100_000,
      required: true,
      example: 1,
    },
    remark(),
  ],
  // a household holds one share of a station (its number of shares says how many)
  { path: 'powerStationShare', unique: [['stationId', 'villagerId']] },
);

/**
 * 电价版本: a station's tariff from a date on. A profit's income takes, day by day, the latest version in
 * force that day (the station's own tariff before its first version): `tariffOn`, `incomeByDays`.
 */
export const powerTariffResource = resource(
  'powerTariff',
  'hope_power_tariff',
  'CalendarOutlined',
  L('电价版本', 'Tariffs'),
  'tariff',
  'power_tariff',
  [
    stationRef({ search: 'equal' }),
    date('effectiveFrom', L('生效日期', 'Effective from'), { required: true }),
    tariff({ required: true }),
    remark(),
  ],
  // one version a station and day: which tariff a day is priced at is never ambiguous
  { defaultSort: { field: 'effectiveFrom', desc: true }, unique: [['stationId', 'effectiveFrom']] },
);

export const MONTH_PATTERN = '^\\d{4}-(0[1-9]|1[0-2])$';

/**
 * 电站收益: a station's month — its energy (the yield computed from the counters when left empty), the
 * tariff (the station's when left empty), the income and its distribution to the households by their
 * shares, computed by the server when saved (`profitOf`).
 */
export const powerStationProfitResource = resource(
  'powerStationProfit',
  'hope_power_station_profit',
  'BankOutlined',
  L('电站收益', 'Station income'),
  'profit',
  'power_profit',
  [
    stationRef({ search: 'equal' }),
    text('month', L('月份', 'Month'), 7, {
      required: true,
      search: 'equal',
      pattern: MONTH_PATTERN,
      patternMessage: L('月份格式为 YYYY-MM', 'A month is YYYY-MM'),
      example: '2026-01',
    }),
    num('energy', L('发电量', 'Energy'), KWH),
    tariff({ example: undefined }),
    { name: 'income', label: L('收益', 'Income'), type: 'money', readOnly: true, form: false },
    {
      name: 'distribution',
      label: L('分配明细', 'Distribution'),
      type: 'json',
      readOnly: true,
      form: false,
      list: false,
      excel: false,
    },
    remark(),
  ],
  { defaultSort: { field: 'month', desc: true } },
);

/** Kinds of new-energy device (`new_energy_kind`). */
export const NEW_ENERGY_KIND = { heatPump: '1', storage: '2', charger: '3' } as const;

/** 新能源设备: a heat pump, a battery or a charger at a station or in a village, with photos. */
export const newEnergyPowerResource = resource(
  'newEnergyPower',
  'hope_new_energy_power',
  'DeploymentUnitOutlined',
  L('新能源设备', 'New-energy devices'),
  'new-energy',
  'new_energy',
  [
    text('name', L('设备名称', 'Name'), 60, { required: true, search: 'like' }),
    dict('kind', L('设备类型', 'Kind'), POWER_DICT.new_energy_kind, { required: true, search: 'equal' }),
    ref('stationId', L('所属电站', 'Station'), 'powerStation', POWER_DEMO.stationId),
    text('village', L('所在村组', 'Village'), 60, { search: 'like' }),
    villagerRef('householdId', L('使用农户', 'Household'), { list: false, search: undefined }),
    num('ratedPower', L('额定功率', 'Rated power'), KW),
    num('energy', L('累计电量', 'Energy'), KWH, { list: false }),
    date('installDate', L('安装日期', 'Installed'), { notAfterToday: true }),
    { name: 'photos', label: L('设备照片', 'Photos'), type: 'image', list: false, span: 24 },
    remark(),
  ],
  { select: { label: 'name', search: ['name', 'village'], hint: 'village' } },
);

/** 供暖记录: a household's heating season by a new-energy device (newEnergyPower/heating). */
export const newEnergyHeatingResource = resource(
  'newEnergyHeating',
  'hope_new_energy_heating',
  'HomeOutlined',
  L('供暖记录', 'Heating records'),
  'heating',
  'new_energy_heating',
  [
    villagerRef('householdId', L('供暖农户', 'Household'), { required: true }),
    ref('deviceId', L('供暖设备', 'Device'), 'newEnergyPower', POWER_DEMO.newEnergyId, { search: undefined }),
    text('season', L('采暖季', 'Season'), 9, {
      required: true,
      search: 'equal',
      pattern: '^\\d{4}-\\d{4}$',
      patternMessage: L('采暖季格式为 2025-2026', 'A season is written 2025-2026'),
      example: '2025-2026',
    }),
    num('area', L('供暖面积', 'Area'), L('m²', 'm²')),
    num('energy', L('耗电量', 'Energy'), KWH, { required: true, example: 1200 }),
    { name: 'days', label: L('供暖天数', 'Days'), type: 'int', min: 0, max: 366, example: 90 },
    remark(),
  ],
  { path: 'newEnergyPower/heating' },
);

/** 电站视频: a camera of a station (played by the safety wall's tile). */
export const powerVideoResource = resource(
  'powerVideo',
  'hope_power_video',
  'VideoCameraOutlined',
  L('电站视频', 'Station cameras'),
  'video',
  'power_video',
  [
    text('name', L('摄像头名称', 'Name'), 60, { required: true, search: 'like' }),
    stationRef({ search: 'equal' }),
    text('place', L('安装位置', 'Place'), 100),
    {
      name: 'streamUrl',
      label: L('视频流地址', 'Stream URL'),
      type: 'videoUrl',
      required: true,
      span: 24,
      list: false,
      example: 'https://video.example.com/live/pv1.m3u8',
    },
    dict('streamKind', L('流类型', 'Stream kind'), SAFETY_DICT.camera_stream_kind, { required: true }),
    { name: 'online', label: L('在线', 'Online'), type: 'switch', default: 1, search: 'equal' },
    remark(),
  ],
  { path: 'video', select: { label: 'name', search: ['name', 'place'], hint: 'place' } },
);

/** Types of collection settings (`power_code_type`). */
export const CODE_TYPE = { inverter: '1', collector: '2', meter: '3' } as const;

const register = z
  .object({
    metric: z.string().min(1).max(40),
    /** Modbus register address */
    address: z.number().int().min(0).max(65_535),
    /** a scale the raw register value is multiplied by */
    scale: z.number().positive().max(1_000_000).optional(),
  })
  .strict();
const settingBase = {
  /** seconds between readings */
  interval: z.number().int().min(10).max(86_400),
  /** the device addresses on the bus (Modbus slave ids) */
  addresses: z.array(z.number().int().min(1).max(247)).min(1).max(64),
  metrics: z.array(register).min(1).max(200),
};
/** What a collector reads, per settings type: the JSON `code/submit` accepts (strict: no other keys). */
export const CODE_SCHEMAS: Record<string, z.ZodType> = {
  [CODE_TYPE.inverter]: z.object(settingBase).strict(),
  [CODE_TYPE.collector]: z
    .object({
      interval: settingBase.interval,
      server: z.string().min(1).max(200),
      port: z.number().int().min(1).max(65_535),
      addresses: settingBase.addresses,
      metrics: settingBase.metrics,
    })
    .strict(),
  [CODE_TYPE.meter]: z.object({ ...settingBase, ct: z.number().positive().max(10_000) }).strict(),
};

/** What is wrong with a settings content for its type (null: nothing), in both languages. */
export function codeProblem(type: string, content: unknown): Text2 | null {
  const schema = CODE_SCHEMAS[type];
  if (!schema) return L('采集配置类型无效', 'Unknown settings type');
  const r = schema.safeParse(content);
  if (r.success) return null;
  const issue = r.error.issues[0];
  const where = issue.path.join('.') || '(root)';
  return L(`采集配置无效:${where} ${issue.message}`, `Invalid settings: ${where} ${issue.message}`);
}

/**
 * 采集配置: each submit of a type's settings is a new version (`code/submit`); `code/get?type=` answers the
 * latest. The versions are listed here, written by the server only.
 */
export const collectSettingResource = resource(
  'collectSetting',
  'hope_collect_setting',
  'SettingOutlined',
  L('采集配置', 'Collection settings'),
  'code',
  'power_code',
  [
    dict('type', L('配置类型', 'Type'), POWER_DICT.power_code_type, { required: true, search: 'equal' }),
    { name: 'version', label: L('版本', 'Version'), type: 'int', min: 1, required: true, example: 1 },
    {
      name: 'content',
      label: L('配置内容', 'Content'),
      type: 'json',
      required: true,
      span: 24,
      list: false,
      example: '{"interval":300,"addresses":[1],"metrics":[{"metric":"acPower","address":5030}]}',
    },
    text('note', L('说明', 'Note'), 200),
  ],
  { path: 'code/version', readOnly: true, defaultSort: { field: 'version', desc: true } },
);

/**
 * The screens that are no definition's list. The live page's code is the core's device resource's with a
 * suffix (`device_power`), so the device history answers it; the overview's is the station's (`_overview`).
 */
export const POWER_SCREENS = {
  overview: {
    code: 'power_station_overview',
    label: L('能源总览', 'Energy overview'),
    path: '/power/overview',
    icon: 'DashboardOutlined',
  },
  live: {
    code: 'device_power',
    label: L('电站实时', 'Live station'),
    path: '/power/live',
    icon: 'LineChartOutlined',
  },
} as const;

/** 光伏电站: the folder and its screens, in menu order (the live page and the overview come first). */
export const POWER_AREA = defineArea({
  code: 'power',
  label: L('光伏电站', 'PV stations'),
  icon: 'ThunderboltOutlined',
  screens: [POWER_SCREENS.overview, POWER_SCREENS.live],
  resources: [
    powerStationResource,
    dataCollectorResource,
    inverterResource,
    powerStationProfitResource,
    powerTariffResource,
    powerShareResource,
    newEnergyPowerResource,
    newEnergyHeatingResource,
    powerVideoResource,
    collectSettingResource,
  ],
  buttons: { collectSetting: [{ code: 'submit', label: L('提交新版本', 'Submit a new version') }] },
  dicts: POWER_DICTS,
});

// ---------------------------------------------------------------------------------------------------------
// Yield: energy from a lifetime counter's roll-ups

/** One roll-up bucket of a lifetime energy counter (kWh): its start, lowest, highest and last reading. */
export interface CounterBucket {
  at: number;
  low: number;
  high: number;
  last: number;
}

/** The energy of one bucket, or null when nothing was read in it. */
export interface BucketEnergy {
  at: number;
  energy: number | null;
  /** the counter dropped in this bucket (a reset, or a new counter starting lower) */
  reset?: boolean;
  /** the counter jumped more than the device can produce (a replaced counter starting higher): not counted */
  replaced?: boolean;
  /** buckets without readings came before this one: the energy over them is counted here */
  afterGap?: boolean;
}

/**
 * The energy of each bucket of `starts` (bucket starts, oldest first) from a lifetime counter's buckets:
 * the difference of consecutive lasts. `prev` is the last reading before the first bucket (null: none).
 * - A drop (the bucket's lowest below the previous last) is a reset: the energy before it (the bucket's
 *   highest above the previous last, if the old counter still read in it) plus the new counter's growth
 *   from its lowest reading.
 * - A rise beyond `maxPerBucket` (what the device can make in a bucket) is a replaced counter: not counted,
 *   the series goes on from the new counter.
 * - A bucket without readings is null (unknown, not zero); the counter's rise over it is counted in the next
 *   bucket that has readings (`afterGap`), so totals still match the counter.
 */
export function counterEnergy(
  starts: number[],
  buckets: CounterBucket[],
  prev: number | null,
  maxPerBucket = Number.POSITIVE_INFINITY,
): BucketEnergy[] {
  return counterEnergyFrom({ last: prev, gap: false, gapRun: 0 }, starts, buckets, maxPerBucket).out;
}

/** Where a counter's differencing stands after some buckets: it goes on from there with the next ones. */
export interface CounterState {
  /** the last reading so far (null: none) */
  last: number | null;
  /** buckets without readings came after a known reading */
  gap: boolean;
  /** how many buckets without readings end what came so far */
  gapRun: number;
}

/**
 * `counterEnergy` from a state, answering the state after `starts` too: closed days differenced once can
 * be kept with their state, and only the open day differenced again (a fleet's overview, power/yield.ts).
 */
export function counterEnergyFrom(
  state: CounterState,
  starts: number[],
  buckets: CounterBucket[],
  maxPerBucket = Number.POSITIVE_INFINITY,
): { out: BucketEnergy[]; state: CounterState } {
  // a walk along both lists in time order
  const sorted = buckets.every((b, i) => i === 0 || buckets[i - 1].at <= b.at)
    ? buckets
    : [...buckets].sort((a, b) => a.at - b.at);
  const out: BucketEnergy[] = [];
  let { last, gap, gapRun } = state;
  let j = 0;
  for (const at of starts) {
    while (j < sorted.length && sorted[j].at < at) j++;
    const b = j < sorted.length && sorted[j].at === at ? sorted[j] : undefined;
    if (!b) {
      out.push({ at, energy: null });
      gap = last !== null;
      gapRun++;
      continue;
    }
    const e: BucketEnergy = { at, energy: 0 };
    if (last === null) e.energy = b.last - b.low;
    else if (b.low < last) {
      e.reset = true;
      e.energy = Math.max(0, b.high - last) + (b.last - b.low);
    } else if (b.last - last > maxPerBucket * (gap ? 1 + gapRun : 1)) {
      e.replaced = true;
      e.energy = null;
    } else e.energy = b.last - last;
    if (gap && last !== null) e.afterGap = true;
    if (e.energy !== null) e.energy = round3(Math.max(0, e.energy));
    out.push(e);
    last = b.last;
    gap = false;
    gapRun = 0;
  }
  return { out, state: { last, gap, gapRun } };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * A running sum of known energies (null while none is known), for sums over many values that need not be
 * kept: a fleet's month is 60 000 inverter-days.
 */
export class EnergySum {
  private total = 0;
  private known = false;
  add(x: number | null | undefined): this {
    if (x !== null && x !== undefined) {
      this.total += x;
      this.known = true;
    }
    return this;
  }
  get value(): number | null {
    return this.known ? round3(this.total) : null;
  }
}

/** The sum of known energies (null when none is known). */
export function sumEnergy(xs: (number | null | undefined)[]): number | null {
  const sum = new EnergySum();
  for (const x of xs) sum.add(x);
  return sum.value;
}

/** Full-load hours: energy (kWh) ÷ capacity (kWp); null without either. */
export function fullLoadHours(energy: number | null, capacity: number | null | undefined): number | null {
  if (energy === null || !capacity || capacity <= 0) return null;
  return Math.round((energy / capacity) * 100) / 100;
}

// ---------------------------------------------------------------------------------------------------------
// Profit: income to the cent, and its distribution by shares

/** Energy (kWh) × tariff (元/kWh), in cents, rounded half away from zero. */
export function incomeCents(energy: number, tariff: number): number {
  // through a decimal text: 0.1 × 3 must not become 0.30000000000000004 and round the wrong way
  const v = Number((energy * tariff).toFixed(6));
  return Math.round(v * 100 + Number.EPSILON * 100);
}

/** A tariff version: from a day (YYYY-MM-DD) on, `tariff` 元/kWh. */
export interface TariffVersion {
  from: string;
  tariff: number;
}

/**
 * The tariff in force on a day (YYYY-MM-DD): the latest version from that day or before, else `base`.
 */
export function tariffOn(day: string, versions: TariffVersion[], base: number): number {
  let best: TariffVersion | undefined;
  for (const v of versions) if (v.from <= day && (!best || v.from >= best.from)) best = v;
  return best ? best.tariff : base;
}

/**
 * A period's income in cents, day by day: each day's energy × the tariff in force that day, rounded to the
 * cent per day (`incomeCents`), summed. Days without a known energy add nothing. `tariffs` answers the
 * distinct tariffs applied (one: the period had a single tariff).
 */
export function incomeByDays(
  days: [day: string, energy: number | null][],
  versions: TariffVersion[],
  base: number,
): { cents: number; tariffs: number[] } {
  let cents = 0;
  const used = new Set<number>();
  for (const [day, energy] of days) {
    if (energy === null) continue;
    const t = tariffOn(day, versions, base);
    used.add(t);
    cents += incomeCents(energy, t);
  }
  return { cents, tariffs: [...used] };
}

export interface ShareHolder {
  villagerId: string;
  share: number;
}
export interface ShareAmount extends ShareHolder {
  /** in 元, two decimals */
  amount: string;
}

/**
 * Distributes `cents` by shares with the largest-remainder method: each gets the floor of their part, and
 * the cents left go one each to the largest remainders (ties: the earlier holder). The amounts sum to the
 * total exactly.
 */
export function distribute(cents: number, holders: ShareHolder[]): ShareAmount[] {
  const total = holders.reduce((a, h) => a + h.share, 0);
  if (!holders.length || total <= 0) return [];
  const parts = holders.map((h, i) => {
    const exact = (cents * h.share) / total;
    const floor = Math.floor(exact);
    return { i, floor, rest: exact - floor };
  });
  let left = cents - parts.reduce((a, p) => a + p.floor, 0);
  const order = [...parts].sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const p of order) {
    if (left <= 0) break;
    p.floor++;
    left--;
  }
  return holders.map((h, i) => ({ ...h, amount: (parts[i].floor / 100).toFixed(2) }));
}

// ---------------------------------------------------------------------------------------------------------
// Wire types

export type YieldGrain = 'day' | 'month' | 'year';

/** One bucket of a station's history (GET powerStationHisData/page). */
export interface StationYield {
  /** YYYY-MM-DD, YYYY-MM or YYYY */
  period: string;
  /** kWh; null: no readings */
  energy: number | null;
  fullLoadHours: number | null;
  /** income (元): each day at the tariff in force that day (`incomeByDays`), summed */
  income: number | null;
}

/** An inverter tile of the live page. */
export interface InverterLive {
  id: string;
  serial: string;
  model: string | null;
  ratedPower: number;
  deviceId: string | null;
  /** `ok`, `fault` (state code 2), `standby` (night), `noData` (its device silent or none) */
  status: 'ok' | 'fault' | 'standby' | 'noData';
  lastSeenAt: string | null;
  power: number | null;
  energyToday: number | null;
  temperature: number | null;
}

export interface CollectorLive {
  id: string;
  serial: string;
  deviceId: string | null;
  online: boolean;
  lastSeenAt: string | null;
  signal: number | null;
}

/** GET powerStation/live?id= (without an id: the first station) */
export interface StationLive {
  /** the stations the caller may pick from */
  stations: { id: string; name: string }[];
  id: string;
  name: string;
  capacity: number;
  power: number;
  energyToday: number | null;
  collectors: CollectorLive[];
  inverters: InverterLive[];
}

/** GET powerStation/overview */
export interface EnergyOverview {
  stations: { id: string; name: string; capacity: number; power: number; energyToday: number | null }[];
  power: number;
  energyToday: number | null;
  /** this month's days: [YYYY-MM-DD, kWh | null] of all stations */
  month: [string, number | null][];
  /** this month's full-load hours per station, best first */
  ranking: { id: string; name: string; hours: number | null }[];
  openAlarms: number;
}
