import { dictCodes, dictionary, numbered } from './dicts';
import { dict, ref, remark, text } from './fields';
import { areaResource, type FieldDef, L, type ResourceDef, type Text2 } from './types';

/** The telemetry core's dictionaries (seed step telemetry-v1). */
export const TELEMETRY_DICTS = [
  dictionary(
    'device_kind',
    L('设备类型', 'Device kind'),
    numbered([
      ['气象站', 'Weather station'],
      ['土壤墒情', 'Soil sensor'],
      ['虫情测报灯', 'Pest trap lamp'],
      ['摄像头', 'Camera'],
      ['边坡监测', 'Slope monitor'],
      ['逆变器', 'Inverter'],
      ['数据采集器', 'Data collector'],
    ]),
  ),
  dictionary(
    'device_alarm_kind',
    L('告警类型', 'Alarm kind'),
    numbered([
      ['超出阈值', 'Threshold crossed'],
      ['设备离线', 'Device offline'],
      ['组串异常', 'String under-performing'],
    ]),
  ),
  dictionary(
    'device_alarm_state',
    L('告警状态', 'Alarm state'),
    numbered([
      ['未处理', 'Raised'],
      ['已确认', 'Acknowledged'],
      ['已关闭', 'Closed'],
    ]),
  ),
];

/** What a field names its dictionary by: `TELEMETRY_DICT.<code>` (a code not declared above does not compile). */
export const TELEMETRY_DICT = dictCodes(TELEMETRY_DICTS);

/**
 * The telemetry core (a platform part, not an agriculture page): devices of a tenant, each of a kind that
 * declares the metrics it reports (unit, range, alarm thresholds); readings (device, metric, time, value)
 * arriving over MQTT or HTTP, kept append-only in monthly partitions and rolled up into 5-minute, hourly and
 * daily buckets; alarms raised when a reading crosses a threshold or a device falls silent past its
 * interval. Smart agriculture, slope monitoring and (next) the power stations all sit on it.
 *
 * Readings are not entities (no definition, no list screen): the server writes them in batches and answers
 * them as bucketed histories. Devices and alarms are entities, declared here like every other.
 */

const SERVICE = 'dfem-hope-manage';
const resource = areaResource(SERVICE, 'agriculture');

/** Device kinds (the `device_kind` dictionary's keys). */
export const DEVICE_KIND = {
  weather: '1',
  soil: '2',
  pest: '3',
  camera: '4',
  slope: '5',
  inverter: '6',
  collector: '7',
} as const;
export type DeviceKindKey = (typeof DEVICE_KIND)[keyof typeof DEVICE_KIND];

export interface MetricDef {
  /** stable small number stored with every reading (never reuse one) */
  id: number;
  /** the name devices send and the API answers */
  code: string;
  label: Text2;
  unit: string;
  /** a reading outside [min, max] is physically impossible: refused and counted, never stored */
  min: number;
  max: number;
  /** default alarm thresholds (a device may set its own) */
  low?: number;
  high?: number;
  /** decimals shown */
  digits: number;
}

const m = (
  id: number,
  code: string,
  zh: string,
  en: string,
  unit: string,
  range: [number, number],
  digits: number,
  alarm: { low?: number; high?: number } = {},
): MetricDef => ({ id, code, label: L(zh, en), unit, min: range[0], max: range[1], digits, ...alarm });

/** Every metric a device may report, by code. Ids are stored: append, never renumber. */
export const METRICS: readonly MetricDef[] = [
  m(1, 'airTemperature', '空气温度', 'Air temperature', '℃', [-50, 70], 1, { low: -5, high: 38 }),
  m(2, 'airHumidity', '空气湿度', 'Air humidity', '%', [0, 100], 0),
  m(3, 'windSpeed', '风速', 'Wind speed', 'm/s', [0, 75], 1, { high: 17.2 }),
  m(4, 'windDirection', '风向', 'Wind direction', '°', [0, 360], 0),
  m(5, 'rainfall', '降雨量', 'Rainfall', 'mm/h', [0, 300], 1, { high: 30 }),
  m(6, 'pressure', '气压', 'Air pressure', 'hPa', [300, 1100], 1),
  m(7, 'illuminance', '光照强度', 'Illuminance', 'lx', [0, 200000], 0),
  m(11, 'soilMoisture', '土壤含水量', 'Soil moisture', '%', [0, 100], 1, { low: 15 }),
  m(12, 'soilTemperature', '土壤温度', 'Soil temperature', '℃', [-30, 60], 1),
  m(13, 'soilEc', '电导率', 'Electrical conductivity', 'mS/cm', [0, 20], 2, { high: 4 }),
  m(14, 'soilPh', '酸碱度', 'pH', 'pH', [0, 14], 1, { low: 5, high: 8.5 }),
  m(15, 'soilNitrogen', '氮', 'Nitrogen', 'mg/kg', [0, 2000], 0),
  m(16, 'soilPhosphorus', '磷', 'Phosphorus', 'mg/kg', [0, 2000], 0),
  m(17, 'soilPotassium', '钾', 'Potassium', 'mg/kg', [0, 2000], 0),
  m(21, 'pestPlanthopper', '稻飞虱', 'Rice planthopper', '头', [0, 100000], 0, { high: 500 }),
  m(22, 'pestStemBorer', '二化螟', 'Striped stem borer', '头', [0, 100000], 0, { high: 100 }),
  m(23, 'pestLeafFolder', '稻纵卷叶螟', 'Rice leaf folder', '头', [0, 100000], 0, { high: 100 }),
  m(24, 'pestArmyworm', '草地贪夜蛾', 'Fall armyworm', '头', [0, 100000], 0, { high: 20 }),
  m(25, 'pestCutworm', '斜纹夜蛾', 'Common cutworm', '头', [0, 100000], 0, { high: 100 }),
  m(26, 'pestOther', '其他害虫', 'Other pests', '头', [0, 100000], 0),
  m(31, 'displacement', '累计位移', 'Displacement', 'mm', [0, 5000], 1, { high: 20 }),
  m(32, 'tiltX', 'X 向倾角', 'Tilt X', '°', [-90, 90], 2, { low: -3, high: 3 }),
  m(33, 'tiltY', 'Y 向倾角', 'Tilt Y', '°', [-90, 90], 2, { low: -3, high: 3 }),
  m(34, 'slopeRainfall', '坡体降雨量', 'Slope rainfall', 'mm/h', [0, 300], 1, { high: 30 }),
  // photovoltaic inverters: output, the day's and the lifetime energy counters, strings 1–4, temperature, state
  m(41, 'acPower', '有功功率', 'Output power', 'kW', [0, 10000], 2),
  m(42, 'energyToday', '当日发电量', "Today's energy", 'kWh', [0, 100000], 1),
  m(43, 'energyTotal', '累计发电量', 'Lifetime energy', 'kWh', [0, 1_000_000_000], 1),
  m(44, 'pv1Voltage', '组串1电压', 'String 1 voltage', 'V', [0, 1500], 1),
  m(45, 'pv2Voltage', '组串2电压', 'String 2 voltage', 'V', [0, 1500], 1),
  m(46, 'pv3Voltage', '组串3电压', 'String 3 voltage', 'V', [0, 1500], 1),
  m(47, 'pv4Voltage', '组串4电压', 'String 4 voltage', 'V', [0, 1500], 1),
  m(48, 'pv1Current', '组串1电流', 'String 1 current', 'A', [0, 50], 2),
  m(49, 'pv2Current', '组串2电流', 'String 2 current', 'A', [0, 50], 2),
  m(50, 'pv3Current', '组串3电流', 'String 3 current', 'A', [0, 50], 2),
  m(51, 'pv4Current', '组串4电流', 'String 4 current', 'A', [0, 50], 2),
  m(52, 'inverterTemperature', '机内温度', 'Inverter temperature', '℃', [-40, 120], 1, { high: 75 }),
  // 0 standby, 1 running, 2 fault (INVERTER_STATE): a fault crosses the high of 1.5 and raises an alarm
  m(53, 'inverterState', '运行状态码', 'State code', '', [0, 99], 0, { high: 1.5 }),
  // data collectors: the mobile signal and a heartbeat (1 each report)
  m(61, 'signalStrength', '信号强度', 'Signal strength', 'dBm', [-130, 0], 0, { low: -110 }),
  m(62, 'heartbeat', '在线心跳', 'Heartbeat', '', [0, 1], 0),
];

/** An inverter's state codes (metric `inverterState`). */
export const INVERTER_STATE = { standby: 0, running: 1, fault: 2 } as const;

export const metricByCode = new Map(METRICS.map((x) => [x.code, x]));
export const metricById = new Map(METRICS.map((x) => [x.id, x]));

/** What a kind of device reports, and how often by default (seconds). */
export const DEVICE_KINDS: Record<
  DeviceKindKey,
  { label: Text2; metrics: readonly string[]; interval: number }
> = {
  '1': {
    label: L('气象站', 'Weather station'),
    metrics: [
      'airTemperature',
      'airHumidity',
      'windSpeed',
      'windDirection',
      'rainfall',
      'pressure',
      'illuminance',
    ],
    interval: 300,
  },
  '2': {
    label: L('土壤墒情', 'Soil sensor'),
    metrics: [
      'soilMoisture',
      'soilTemperature',
      'soilEc',
      'soilPh',
      'soilNitrogen',
      'soilPhosphorus',
      'soilPotassium',
    ],
    interval: 300,
  },
  '3': {
    label: L('虫情测报灯', 'Pest trap lamp'),
    metrics: [
      'pestPlanthopper',
      'pestStemBorer',
      'pestLeafFolder',
      'pestArmyworm',
      'pestCutworm',
      'pestOther',
    ],
    interval: 3600,
  },
  '4': { label: L('摄像头', 'Camera'), metrics: [], interval: 300 },
  '5': {
    label: L('边坡监测', 'Slope monitor'),
    metrics: ['displacement', 'tiltX', 'tiltY', 'slopeRainfall'],
    interval: 300,
  },
  '6': {
    label: L('逆变器', 'Inverter'),
    metrics: [
      'acPower',
      'energyToday',
      'energyTotal',
      'pv1Voltage',
      'pv2Voltage',
      'pv3Voltage',
      'pv4Voltage',
      'pv1Current',
      'pv2Current',
      'pv3Current',
      'pv4Current',
      'inverterTemperature',
      'inverterState',
    ],
    interval: 300,
  },
  '7': { label: L('数据采集器', 'Data collector'), metrics: ['signalStrength', 'heartbeat'], interval: 300 },
};

/** The metrics of a kind, as definitions. */
export const metricsOfKind = (kind: string): MetricDef[] =>
  (DEVICE_KINDS[kind as DeviceKindKey]?.metrics ?? []).map((c) => metricByCode.get(c)!);

/**
 * A device's own thresholds (its `thresholds` field): per metric code, a low and/or a high; an inverter may
 * also set its own under-performing string share (`"stringDeviation": 20`, a percentage).
 */
export type Thresholds = Record<string, { low?: number; high?: number } | number>;

/** The thresholds that apply to a metric of a device: the device's own where set, else the metric's. */
export function thresholdOf(metric: MetricDef, own?: Thresholds | null): { low?: number; high?: number } {
  const o = own?.[metric.code];
  const t = typeof o === 'object' ? o : undefined;
  return { low: t?.low ?? metric.low, high: t?.high ?? metric.high };
}

/** The share (%) below its siblings' median at which a string of this inverter under-performs. */
export function stringDeviationOf(own: Thresholds | null | undefined, fallback: number): number {
  const v = own?.[STRING_ALARM.deviationKey];
  return typeof v === 'number' ? v : fallback;
}

/**
 * What is wrong with a device's own thresholds for its kind (null: nothing): unknown metrics, values that
 * are not numbers or lie outside the metric's range, a low above its high.
 */
export function checkThresholds(kind: string, value: unknown): Text2 | null {
  if (value === null || value === undefined || value === '') return null;
  const own = typeof value === 'string' ? safeJson(value) : value;
  if (!own || typeof own !== 'object' || Array.isArray(own))
    return L(
      '告警阈值须为 {"指标":{"low":下限,"high":上限}}',
      'Thresholds are {"metric":{"low":…,"high":…}}',
    );
  const allowed = new Set(DEVICE_KINDS[kind as DeviceKindKey]?.metrics ?? []);
  for (const [code, t] of Object.entries(own as Record<string, unknown>)) {
    if (code === STRING_ALARM.deviationKey && STRING_ALARM.metrics.every((m) => allowed.has(m))) {
      if (typeof t !== 'number' || !Number.isFinite(t) || t < 1 || t > 99)
        return L(
          '组串偏差比例(stringDeviation)须在 1 到 99 之间',
          'The string deviation share (stringDeviation) lies between 1 and 99',
        );
      continue;
    }
    const metric = metricByCode.get(code);
    if (!metric || !allowed.has(code))
      return L(`该类设备没有指标 ${code}`, `This kind of device has no metric ${code}`);
    if (!t || typeof t !== 'object' || Array.isArray(t))
      return L(`${metric.label.zh}的阈值无效`, `The thresholds of ${metric.label.en} are invalid`);
    const { low, high, ...rest } = t as Record<string, unknown>;
    if (Object.keys(rest).length)
      return L(`${metric.label.zh}的阈值只有 low 和 high`, `${metric.label.en} takes only low and high`);
    for (const x of [low, high])
      if (
        x !== undefined &&
        (typeof x !== 'number' || !Number.isFinite(x) || x < metric.min || x > metric.max)
      )
        return L(
          `${metric.label.zh}的阈值须在 ${metric.min} 到 ${metric.max} 之间`,
          `${metric.label.en} thresholds lie between ${metric.min} and ${metric.max}`,
        );
    if (typeof low === 'number' && typeof high === 'number' && low > high)
      return L(`${metric.label.zh}的下限高于上限`, `${metric.label.en}: the low is above the high`);
  }
  return null;
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}

/** Rows the demo seed always creates (tenant 000000). */
export const TELEMETRY_DEMO = {
  /** the demo devices: serials are what the simulator publishes as */
  weatherId: '1190000000001800001',
  soilId: '1190000000001800002',
  pestId: '1190000000001800003',
  slopeId: '1190000000001800004',
  soil2Id: '1190000000001800005',
  cameraId: '1190000000001800006',
} as const;

/** A device serial is part of its MQTT topic: no `/`, `+`, `#` or spaces. */
export const SERIAL_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.-]{2,39}$';

const deviceFields: FieldDef[] = [
  text('name', L('设备名称', 'Name'), 40, { required: true, search: 'like' }),
  dict('kind', L('设备类型', 'Kind'), TELEMETRY_DICT.device_kind, { required: true, search: 'equal' }),
  text('serial', L('设备编号', 'Serial'), 40, {
    required: true,
    search: 'like',
    pattern: SERIAL_PATTERN,
    patternMessage: L(
      '设备编号为 3-40 位字母、数字、点、下划线或短横线',
      'A serial is 3–40 letters, digits, dots, underscores or hyphens',
    ),
    example: 'WS-0001',
  }),
  ref('plotId', L('所在地块', 'Plot'), 'plot', '1190000000001700001', { search: 'equal' }),
  {
    name: 'location',
    label: L('安装位置', 'Position'),
    type: 'geoPoint',
    list: false,
    example: '112.9388,28.2282',
  },
  {
    name: 'reportInterval',
    label: L('上报间隔', 'Report interval'),
    type: 'int',
    unit: L('秒', 's'),
    min: 10,
    max: 86400,
    default: 300,
    list: false,
    example: 300,
  },
  {
    name: 'thresholds',
    label: L('告警阈值', 'Alarm thresholds'),
    type: 'json',
    list: false,
    span: 24,
    example: '{}',
  },
  ref('responsibleId', L('负责人', 'Responsible person'), 'user', '1123598821738675201', { list: false }),
  {
    name: 'secret',
    label: L('设备密钥', 'Device secret'),
    type: 'text',
    max: 64,
    secret: true,
    readOnly: true,
    form: false,
    list: false,
    excel: false,
  },
  text('deleteRemark', L('删除原因', 'Reason removed'), 200, { readOnly: true, form: false, list: false }),
  remark(),
];

/**
 * 设备管理 (`smartPlant/deviceManage`): a device of the tenant. Its secret is made by the server and shown
 * once (on creation, or when reset): devices sign their readings with it. Online state, the last reading's
 * time and values are derived from the readings (answered beside the row, never written through a form).
 */
export const deviceResource: ResourceDef = resource(
  'device',
  'hope_device',
  'ApiOutlined',
  L('设备管理', 'Devices'),
  'device',
  'device',
  deviceFields,
  {
    path: 'smartPlant/deviceManage',
    unique: ['serial'],
    select: { label: 'name', search: ['name', 'serial'], hint: 'serial' },
    defaultSort: { field: 'serial' },
  },
);

/** Alarm kinds (`device_alarm_kind`) and states (`device_alarm_state`). */
export const ALARM_KIND = { threshold: '1', offline: '2', string: '3' } as const;

/**
 * The under-performing string check of an inverter (alarm kind `string`): a string's current below the
 * median of its siblings' by more than `share` (the inverter's own `stringDeviation` threshold, else the system
 * parameter `power.string.deviation`, a percentage),
 * while that median is at least `minCurrent` A (`power.string.minCurrent`: the sun is up).
 */
export const STRING_ALARM = {
  metrics: ['pv1Current', 'pv2Current', 'pv3Current', 'pv4Current'],
  params: { deviation: 'power.string.deviation', minCurrent: 'power.string.minCurrent' },
  /** an inverter's own share in its thresholds, over the parameter */
  deviationKey: 'stringDeviation',
  defaults: { deviation: 30, minCurrent: 1 },
} as const;

/** The median of numbers (undefined for none). */
export function median(xs: number[]): number | undefined {
  if (!xs.length) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

/**
 * Which strings of one reading of an inverter's string currents (by metric code) are judged: each with
 * its siblings' median, the floor below which it under-performs, and whether it does. Strings whose
 * siblings' median is below `minCurrent` (night, dusk) are not judged; fewer than three strings, none.
 */
export function judgeStrings(
  currents: Record<string, number>,
  deviation: number,
  minCurrent: number,
): { metric: string; value: number; median: number; floor: number; low: boolean }[] {
  const codes = STRING_ALARM.metrics.filter((c) => typeof currents[c] === 'number');
  if (codes.length < 3) return [];
  const out = [];
  for (const c of codes) {
    const m = median(codes.filter((o) => o !== c).map((o) => currents[o]));
    if (m === undefined || m < minCurrent) continue;
    const floor = Math.round(m * (1 - deviation / 100) * 100) / 100;
    out.push({ metric: c, value: currents[c], median: m, floor, low: currents[c] < floor });
  }
  return out;
}
export const ALARM_STATE = { raised: '1', acknowledged: '2', closed: '3' } as const;

/**
 * 设备告警: raised by the server (a reading past a threshold, a device silent past its interval), then
 * acknowledged and closed by a person with a note. Written by the server and the two actions only.
 */
export const deviceAlarmResource: ResourceDef = resource(
  'deviceAlarm',
  'hope_device_alarm',
  'NotificationOutlined',
  L('设备告警', 'Device alarms'),
  'alarm',
  'device_alarm',
  [
    ref('deviceId', L('设备', 'Device'), 'device', TELEMETRY_DEMO.weatherId, {
      required: true,
      search: 'equal',
    }),
    dict('kind', L('告警类型', 'Kind'), TELEMETRY_DICT.device_alarm_kind, {
      required: true,
      search: 'equal',
    }),
    text('metric', L('指标', 'Metric'), 40),
    { name: 'value', label: L('读数', 'Reading'), type: 'decimal' },
    { name: 'threshold', label: L('阈值', 'Threshold'), type: 'decimal' },
    dict('state', L('状态', 'State'), TELEMETRY_DICT.device_alarm_state, { required: true, search: 'equal' }),
    {
      name: 'raisedAt',
      notAfterToday: true,
      label: L('告警时间', 'Raised at'),
      type: 'datetime',
      required: true,
    },
    { name: 'recoveredAt', notAfterToday: true, label: L('恢复时间', 'Recovered at'), type: 'datetime' },
    {
      name: 'acknowledgedAt',
      notAfterToday: true,
      label: L('确认时间', 'Acknowledged at'),
      type: 'datetime',
      list: false,
    },
    text('acknowledgedBy', L('确认人', 'Acknowledged by'), 40, { list: false }),
    {
      name: 'closedAt',
      notAfterToday: true,
      label: L('关闭时间', 'Closed at'),
      type: 'datetime',
      list: false,
    },
    text('closedBy', L('关闭人', 'Closed by'), 40, { list: false }),
    text('note', L('处理说明', 'Note'), 500, { list: false }),
  ],
  { readOnly: true, defaultSort: { field: 'raisedAt', desc: true } },
);

/** What an alarm says, in a language: `空气温度 39.2 ℃ 高于上限 38 ℃`, `设备离线`. */
export function alarmText(
  a: { kind?: unknown; metric?: unknown; value?: unknown; threshold?: unknown },
  lang: 'zh' | 'en',
): string {
  if (String(a.kind) === ALARM_KIND.offline)
    return lang === 'zh'
      ? '设备离线:超过三个上报间隔未收到数据'
      : 'Device offline: silent for three report intervals';
  const metric = metricByCode.get(String(a.metric ?? ''));
  const value = Number(a.value);
  const threshold = Number(a.threshold);
  if (!metric || !Number.isFinite(value) || !Number.isFinite(threshold)) return '';
  const unit = metric.unit ? ` ${metric.unit}` : '';
  const v = `${value.toFixed(metric.digits)}${unit}`;
  const t = `${threshold.toFixed(metric.digits)}${unit}`;
  if (String(a.kind) === ALARM_KIND.string)
    return lang === 'zh'
      ? `组串异常:${metric.label.zh} ${v} 低于同机组串中位数折算下限 ${t}`
      : `String under-performing: ${metric.label.en} ${v} below ${t}, the floor from its siblings' median`;
  if (lang === 'en')
    return `${metric.label.en} ${v} ${value > threshold ? 'above the high' : 'below the low'} of ${t}`;
  return `${metric.label.zh} ${v} ${value > threshold ? '高于上限' : '低于下限'} ${t}`;
}

/**
 * 虫情图片: what a trap lamp photographed (uploaded by the lamp itself, signed with its secret:
 * `POST /api/telemetry/<tenant>/3/<serial>/photo`), newest first. Written by the server only.
 */
export const pestPhotoResource: ResourceDef = resource(
  'pestPhoto',
  'hope_pest_photo',
  'PictureOutlined',
  L('虫情图片', 'Trap photos'),
  'pestPhoto',
  'pest_photo',
  [
    ref('deviceId', L('测报灯', 'Trap lamp'), 'device', TELEMETRY_DEMO.pestId, {
      required: true,
      search: 'equal',
    }),
    {
      name: 'takenAt',
      notAfterToday: true,
      label: L('拍摄时间', 'Taken at'),
      type: 'datetime',
      required: true,
    },
    { name: 'photo', label: L('图片', 'Photo'), type: 'image', required: true },
  ],
  { path: 'pest/photo', readOnly: true, defaultSort: { field: 'takenAt', desc: true } },
);

export const TELEMETRY_RESOURCES: ResourceDef[] = [deviceResource, deviceAlarmResource, pestPhotoResource];

/** A device as the list answers it: the row, with what the readings say beside it. */
export interface DeviceLive {
  /** 1 while the last reading is within three report intervals */
  online: number;
  lastSeenAt: string | null;
  /** the last value of each metric, by code */
  lastValues: Record<string, number> | null;
}

/** A bucketed history (GET smartPlant/deviceManage/history). */
export interface History {
  deviceId: string;
  metric: string;
  /** the bucket width in seconds (0: raw readings) */
  step: number;
  /** [time (ms), average, min, max] oldest first, at most `points` of them */
  points: [number, number, number, number][];
}

/**
 * The monitoring screens (not a definition's list). Their codes are the device resource's with a suffix, so
 * the device endpoints that read readings (history, export) accept each of them.
 */
export const TELEMETRY_SCREENS = {
  weather: {
    code: 'device_weather',
    label: L('气象监测', 'Weather'),
    path: '/agriculture/weather',
    icon: 'CloudOutlined',
  },
  soil: {
    code: 'device_soil',
    label: L('土壤墒情', 'Soil'),
    path: '/agriculture/soil',
    icon: 'ExperimentOutlined',
  },
  pest: {
    code: 'device_pest',
    label: L('虫情监测', 'Pests'),
    path: '/agriculture/pest',
    icon: 'BugOutlined',
  },
  slope: {
    code: 'device_slope',
    label: L('边坡监测', 'Slope monitoring'),
    path: '/agriculture/slope',
    icon: 'EnvironmentOutlined',
  },
} as const;
