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
      // the view shows what the server computed: each household's share and amount
      view: true,
      span: 24,
      table: [
        { key: 'villagerId', label: L('农户', 'Household'), ref: 'villager' },
        { key: 'share', label: L('份额', 'Share'), type: 'decimal' },
        { key: 'amount', label: L('金额', 'Amount'), type: 'money' },
      ],
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

export * from './power-energy';
