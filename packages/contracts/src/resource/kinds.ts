import { isId } from '../constants';
import {
  CREDIT_CODE_MESSAGES,
  creditCodeCheckChar,
  creditCodeProblem,
  DECIMAL_MAX,
  DICT_KEY_MAX,
  EMAIL,
  FIELD_MESSAGES,
  fill,
  GB_DEVICE_MESSAGES,
  gbDeviceIdProblem,
  ID_CARD_MESSAGES,
  INT_MAX,
  INT_MIN,
  ISSUED_FILE_PATH,
  ISSUED_IMAGE_PATH,
  ISSUED_VIDEO_PATH,
  idCardCheckDigit,
  idCardProblem,
  isDate,
  isDateTime,
  LANDLINE,
  localize,
  MOBILE,
  maskForNotice,
  PHONE_MESSAGES,
} from './formats';
import type { FieldDef, FieldType, Text2 } from './types';

/**
 * The field-kind registry: for every FieldType, once, what both ends and the generated tests need to know —
 * the column it is kept in, how a filter value is read, whether it is picked or typed, its longest value,
 * its rule, how a valid value is cleaned, what an Excel template says of it, a valid sample and values it
 * refuses. `Record<FieldType, FieldKind>`: a new kind fails the type check until it is described here (and
 * in the web's `platform/crud/kinds.tsx`, which owns its controls and cells).
 */

/** The column a kind's value is kept in (server `platform/crud/model.ts`). */
export type ColumnKind = 'varchar' | 'text' | 'integer' | 'numeric' | 'date' | 'timestamp' | 'bigint';

/** How a filter's query value is read for a column the engine does not know by its SQL type. */
export type FilterValue = 'text' | 'int' | 'numeric' | 'date' | 'id';

export interface FieldKind {
  column: ColumnKind;
  filter: FilterValue;
  /** picked, not typed: a missing value says 请选择… (please select) instead of 请输入… */
  picked: boolean;
  /** the longest value when the field sets no `max` (the column's length) */
  max: number;
  /** the kind's rule for a non-empty value (a message, or null when it is valid) */
  check?: (s: string, f: FieldDef, value: unknown) => Text2 | null;
  /**
   * after its own rule, the value must also pass the text rules (a string or a number, at most `max`
   * characters, at least `min`, matching `pattern`)
   */
  textRules: boolean;
  /** a valid value → what is stored (default: trimmed text) */
  normalize?: (v: unknown) => unknown;
  /** what an Excel template's note says of a column of this kind */
  excelHint?: (f: FieldDef) => Text2 | null;
  /** the unit a number of this kind is in when the field names none (money: 元) */
  unit?: Text2;
  /** a valid value (distinct per n where the kind allows): the placeholder's hint, the generated tests' sample */
  sample: (f: FieldDef, n: number) => string | number;
  /** values the kind refuses whatever the field says, and why: the generated kind tests send each */
  refuses: readonly (readonly [why: string, value: string])[];
  /**
   * a personal number a list answers masked (`maskForNotice`: 430181********1234, 138****5678): the server
   * masks it in every list and tree answer; the detail (查看, 修改) and the export answer it whole
   */
  masked?: 'idcard' | 'phone';
}

const format = (f: FieldDef) => localize(FIELD_MESSAGES.format, f.label);
const rule = (ok: boolean, f: FieldDef) => (ok ? null : format(f));

/** A number within the field's min and max and what its column holds; `places`: most decimals allowed. */
function checkNumber(s: string, f: FieldDef, value: unknown, kind: 'int' | 'decimal', places?: number) {
  const n = typeof value === 'number' ? value : Number(s);
  if (!Number.isFinite(n) || (kind === 'int' && !Number.isInteger(n)))
    return localize(FIELD_MESSAGES.number, f.label);
  if ((f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max))
    return localize(FIELD_MESSAGES.range, f.label);
  // and whatever min and max say, within what the column holds
  if (kind === 'int' ? n < INT_MIN || n > INT_MAX : Math.abs(n) > DECIMAL_MAX)
    return localize(FIELD_MESSAGES.range, f.label);
  if (places !== undefined && !new RegExp(`^-?\\d+(?:\\.\\d{1,${places}})?$`).test(String(n)))
    return fill(localize(FIELD_MESSAGES.places, f.label), { places });
  return null;
}

const numberHint =
  (unit?: Text2) =>
  (f: FieldDef): Text2 => {
    const bounds = `${f.min !== undefined ? ` ≥ ${f.min}` : ''}${f.max !== undefined ? ` ≤ ${f.max}` : ''}`;
    const u = f.unit ?? unit;
    return { zh: `数字${bounds}${u ? `(${u.zh})` : ''}`, en: `number${bounds}${u ? ` (${u.en})` : ''}` };
  };
const lengthHint = (f: FieldDef, max: number): Text2 => ({
  zh: `不超过 ${f.max ?? max}`,
  en: `at most ${f.max ?? max}`,
});

/** Longitude, latitude in degrees (WGS-84 / GCJ-02 as the map gives them): -180..180, -90..90. */
const isLngLat = (lng: unknown, lat: unknown) =>
  typeof lng === 'number' &&
  typeof lat === 'number' &&
  Math.abs(lng) <= 180 &&
  Math.abs(lat) <= 90 &&
  Number.isFinite(lng + lat);
const POINT = /^(-?\d{1,3}(?:\.\d{1,8})?),(-?\d{1,2}(?:\.\d{1,8})?)$/;
/** a polygon's most corners (a village boundary drawn by hand has a few hundred) */
export const POLYGON_MAX_POINTS = 5000;

function parseJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/** A JSON array of at least `least` [longitude, latitude] points (a polygon's corners, a line's points). */
function isPointList(s: string, least: number): boolean {
  const v = parseJson(s);
  return (
    Array.isArray(v) &&
    v.length >= least &&
    v.length <= POLYGON_MAX_POINTS &&
    v.every((p) => Array.isArray(p) && p.length === 2 && isLngLat(p[0], p[1]))
  );
}
const isPolygon = (s: string) => isPointList(s, 3);

/** A path on the console's own server (`/demo-video/gate/index.m3u8`); never `//host` (another site). */
const SAME_ORIGIN_PATH = /^\/(?![/\\])[\w\-.~%/]*$/;

/**
 * A video a camera or a platform serves: an http(s) page or stream (HLS, FLV, MP4), an RTSP/RTMP source, or
 * a path on the console's own server (the demo cameras' streams).
 */
function isVideoUrl(s: string): boolean {
  if (/\s/.test(s)) return false;
  if (SAME_ORIGIN_PATH.test(s)) return true;
  try {
    const u = new URL(s);
    return ['http:', 'https:', 'rtsp:', 'rtmp:'].includes(u.protocol) && u.hostname !== '';
  } catch {
    return false;
  }
}

const issuedPaths = (re: RegExp) => (s: string, f: FieldDef) =>
  rule(s.length <= (f.max ?? 2000) && s.split(',').every((x) => re.test(x)), f);

/** A text's sample: its label and n (a patterned text has no such sample: it gives an example). */
const textSample = (f: FieldDef, n: number) =>
  (f.pattern ? `s${n}` : `${f.label.zh}${n}`).padEnd(f.min ?? 0, 'x').slice(0, f.max ?? 255);
const VALID_ID_17 = '11010519900101123';
/** a farmers' cooperative registered in Changsha (93: 农民专业合作社, 430100), organisation code by n */
const creditFirst17 = (n: number) => `93430100MA4L${String(n % 100000).padStart(5, '0')}`;
const VALID_CREDIT_17 = creditFirst17(1);
const uuidOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const text = (max: number): FieldKind => ({
  column: 'varchar',
  filter: 'text',
  picked: false,
  max,
  textRules: true,
  excelHint: (f) => lengthHint(f, max),
  sample: textSample,
  refuses: [],
});

export const FIELD_KINDS: Record<FieldType, FieldKind> = {
  text: text(255),
  textarea: text(2000),
  int: {
    column: 'integer',
    filter: 'int',
    picked: false,
    max: 255,
    textRules: false,
    check: (s, f, v) => checkNumber(s, f, v, 'int'),
    normalize: (v) => Math.trunc(Number(v)),
    excelHint: numberHint(),
    sample: (f, n) => Math.max(f.min ?? 0, 1) + (n % 5),
    refuses: [
      ['not a number', 'abc'],
      ['a fraction', '1.5'],
      ['beyond an integer column', '2147483648'],
    ],
  },
  decimal: {
    column: 'numeric',
    filter: 'numeric',
    picked: false,
    max: 255,
    textRules: false,
    check: (s, f, v) => checkNumber(s, f, v, 'decimal'),
    normalize: (v) => String(Number(v)),
    excelHint: numberHint(),
    sample: (_f, n) => 1.5 + n,
    refuses: [
      ['not a number', 'abc'],
      ['beyond the column', '1e15'],
    ],
  },
  money: {
    column: 'numeric',
    filter: 'numeric',
    picked: false,
    max: 255,
    textRules: false,
    check: (s, f, v) => checkNumber(s, f, v, 'decimal', 2),
    normalize: (v) => Number(v).toFixed(2),
    unit: { zh: '元', en: 'CNY' },
    excelHint: numberHint({ zh: '元', en: 'CNY' }),
    sample: (_f, n) => `${100 + n}.50`,
    refuses: [
      ['not a number', 'abc'],
      ['a third decimal place', '1.234'],
      ['beyond the column', '1e15'],
    ],
  },
  date: {
    column: 'date',
    filter: 'date',
    picked: true,
    max: 255,
    textRules: true,
    check: (s, f) => rule(isDate(s), f),
    excelHint: () => ({ zh: '日期,如 2026-01-15', en: 'date, e.g. 2026-01-15' }),
    sample: () => '2026-01-15',
    refuses: [
      ['no such day', '2026-02-30'],
      ['not a date', '15/01/2026'],
    ],
  },
  datetime: {
    column: 'timestamp',
    filter: 'date',
    picked: true,
    max: 255,
    textRules: true,
    check: (s, f) => rule(isDateTime(s), f),
    excelHint: () => ({
      zh: '日期时间,如 2026-01-15 10:30:00',
      en: 'date and time, e.g. 2026-01-15 10:30:00',
    }),
    sample: () => '2026-01-15 10:30:00',
    refuses: [
      ['no such month', '2026-13-45'],
      ['no such hour', '2026-01-15 24:00:00'],
    ],
  },
  dateRange: {
    column: 'varchar',
    filter: 'text',
    picked: true,
    max: 21,
    textRules: false,
    check(s, f) {
      const [start, end, more] = s.split(',');
      if (more !== undefined || !start || !end || !isDate(start) || !isDate(end)) return format(f);
      return start <= end ? null : localize(FIELD_MESSAGES.rangeOrder, f.label);
    },
    excelHint: () => ({ zh: '起止日期,如 2026-01-01,2026-03-31', en: 'from,to e.g. 2026-01-01,2026-03-31' }),
    sample: (_f, n) => `2026-01-${String(1 + (n % 28)).padStart(2, '0')},2026-03-31`,
    refuses: [
      ['an end before its start', '2026-03-31,2026-01-01'],
      ['one day only', '2026-01-01'],
      ['no such day', '2026-02-30,2026-03-01'],
    ],
  },
  dict: {
    column: 'varchar',
    filter: 'text',
    picked: true,
    max: DICT_KEY_MAX,
    textRules: true,
    // a numeric key may be kept in an integer column
    check: (s, f) =>
      /^-?\d+$/.test(s.trim()) && (Number(s) < INT_MIN || Number(s) > INT_MAX)
        ? localize(FIELD_MESSAGES.range, f.label)
        : null,
    sample: () => '1',
    refuses: [['longer than a key', 'k'.repeat(DICT_KEY_MAX + 1)]],
  },
  dictMulti: {
    column: 'varchar',
    filter: 'text',
    picked: true,
    max: 255,
    textRules: true,
    sample: () => '1',
    refuses: [],
  },
  switch: {
    column: 'integer',
    filter: 'int',
    picked: true,
    max: 255,
    textRules: false,
    check: (s, f) => rule(s === '0' || s === '1', f),
    normalize: (v) => Math.trunc(Number(v)),
    excelHint: () => ({ zh: '是 或 否', en: 'Yes or No' }),
    sample: () => 1,
    refuses: [
      ['neither 0 nor 1', '2'],
      ['a word', 'yes'],
    ],
  },
  mobile: {
    column: 'varchar',
    filter: 'text',
    picked: false,
    max: 255,
    textRules: false,
    masked: 'phone',
    check: (s) => (s.length !== 11 ? PHONE_MESSAGES.length : MOBILE.test(s) ? null : PHONE_MESSAGES.format),
    excelHint: () => ({ zh: '11位手机号码', en: '11-digit mobile number' }),
    sample: (_f, n) => `1380013${String(8000 + (n % 2000)).padStart(4, '0')}`,
    refuses: [
      ['the wrong length', '138'],
      ['not a mobile', '23800138000'],
    ],
  },
  phone: {
    column: 'varchar',
    filter: 'text',
    picked: false,
    max: 20,
    textRules: true,
    masked: 'phone',
    // a landline passes; anything else is checked as the mobile it must then be, in the spec's words (§5)
    check: (s) =>
      LANDLINE.test(s) || MOBILE.test(s)
        ? null
        : /^1\d*$/.test(s) && s.length !== 11
          ? PHONE_MESSAGES.length
          : PHONE_MESSAGES.format,
    excelHint: () => ({
      zh: '手机或固定电话,如 0731-84561234',
      en: 'mobile or landline, e.g. 0731-84561234',
    }),
    // a landline: what the mobile kind would refuse
    sample: (_f, n) => `0731-8456${String(1000 + (n % 9000)).padStart(4, '0')}`,
    refuses: [
      ['letters', '0731-8456abcd'],
      ['too short', '12345'],
    ],
  },
  email: {
    column: 'varchar',
    filter: 'text',
    picked: false,
    max: 255,
    textRules: true,
    check: (s, f) => rule(EMAIL.test(s), f),
    sample: (_f, n) => `user${n}@example.com`,
    refuses: [['no domain', 'user@']],
  },
  ids: {
    column: 'text',
    filter: 'text',
    picked: true,
    max: 20000,
    textRules: true,
    check: (s, f) => rule(s.split(',').every(isId), f),
    sample: () => '',
    refuses: [['not ids', 'a,b']],
  },
  ref: {
    column: 'bigint',
    filter: 'id',
    picked: true,
    max: 255,
    textRules: true,
    check: (s, f) => rule(isId(s), f),
    excelHint: () => ({ zh: '填写已登记的姓名/名称', en: 'the name of an existing record' }),
    sample: () => '',
    refuses: [['not an id', 'abc']],
  },
  refs: {
    column: 'text',
    filter: 'text',
    picked: true,
    max: 20000,
    textRules: false,
    check: (s, f) => {
      const ids = s.split(',');
      return rule(ids.length <= 500 && ids.every(isId), f);
    },
    excelHint: () => ({ zh: '填写已登记的姓名/名称', en: 'the name of an existing record' }),
    sample: () => '',
    refuses: [['not ids', 'abc,1']],
  },
  idcard: {
    column: 'varchar',
    filter: 'text',
    picked: false,
    max: 255,
    textRules: true,
    masked: 'idcard',
    check(s, f) {
      const why = idCardProblem(s);
      return why ? localize(ID_CARD_MESSAGES[why], f.label) : null;
    },
    normalize: (v) => String(v).trim().toUpperCase(),
    excelHint: () => ({ zh: '18位居民身份证号码', en: '18-character resident ID number' }),
    sample(_f, n) {
      const first = `11010519900101${String(100 + (n % 900))}`;
      return first + idCardCheckDigit(first);
    },
    refuses: [
      ['the wrong length', '1101051990010'],
      ['a wrong check digit', VALID_ID_17 + (idCardCheckDigit(VALID_ID_17) === '0' ? '1' : '0')],
      ['a birth date in the future', '110105209901011234'],
    ],
  },
  gbDeviceId: {
    column: 'varchar',
    filter: 'text',
    picked: false,
    max: 20,
    textRules: false,
    check(s, f) {
      const why = gbDeviceIdProblem(s);
      return why ? localize(GB_DEVICE_MESSAGES[why], f.label) : null;
    },
    excelHint: () => ({ zh: '20位国标编码', en: '20-digit GB/T 28181 code' }),
    // Hunan (43…), trade 00, an IP camera (132), network 0, serial n
    sample: (_f, n) => `4301000000132${String(n % 10_000_000).padStart(7, '0')}`,
    refuses: [
      ['the wrong length', '4301000000132000001'],
      ['no province', '99010000001320000001'],
      ['a server, not a video device', '43010000002000000001'],
    ],
  },
  creditCode: {
    column: 'varchar',
    filter: 'text',
    picked: false,
    max: 18,
    textRules: false,
    check(s, f) {
      const why = creditCodeProblem(s);
      return why ? localize(CREDIT_CODE_MESSAGES[why], f.label) : null;
    },
    normalize: (v) => String(v).trim().toUpperCase(),
    excelHint: () => ({ zh: '18位统一社会信用代码', en: '18-character unified social credit code' }),
    sample(_f, n) {
      const first = creditFirst17(n);
      return first + creditCodeCheckChar(first);
    },
    refuses: [
      ['the wrong length', '93430100MA4L0000'],
      [
        'a wrong check character',
        VALID_CREDIT_17 + (creditCodeCheckChar(VALID_CREDIT_17) === '0' ? '1' : '0'),
      ],
      ['a letter the code never uses', `93430100MA4I00001${creditCodeCheckChar(VALID_CREDIT_17)}`],
    ],
  },
  image: {
    column: 'varchar',
    filter: 'text',
    picked: true,
    max: 255,
    textRules: false,
    check: issuedPaths(ISSUED_IMAGE_PATH),
    sample: (_f, n) => `/api/dfem-hope-manage/file/image/${uuidOf(n)}.png`,
    refuses: [
      ['another site', 'https://evil.example/a.png'],
      ['another API path', '/api/dfem-system/user/remove?ids=1'],
      ['a climb out', '/api/dfem-hope-manage/file/image/../../x.png'],
    ],
  },
  files: {
    column: 'varchar',
    filter: 'text',
    picked: true,
    max: 2000,
    textRules: false,
    check: issuedPaths(ISSUED_FILE_PATH),
    sample: (_f, n) => `/api/dfem-hope-manage/file/attach/${uuidOf(n)}.pdf`,
    refuses: [
      ['another site', 'https://evil.example/a.pdf'],
      ['a program', `/api/dfem-hope-manage/file/attach/${uuidOf(1)}.exe`],
    ],
  },
  password: {
    column: 'varchar',
    filter: 'text',
    picked: false,
    max: 255,
    textRules: false,
    // what reaches the server is the md5 of what was typed; the browser checks the typed length
    check: (s, f) => rule(/^[0-9a-f]{32}$/.test(s), f),
    sample: (_f, n) => (n % 16).toString(16).repeat(32),
    refuses: [['not an md5 digest', 'plain']],
  },
  geoPoint: {
    column: 'varchar',
    filter: 'text',
    picked: false,
    max: 40,
    textRules: false,
    check(s, f) {
      const m = POINT.exec(s.replace(/\s/g, ''));
      return rule(!!m && isLngLat(Number(m[1]), Number(m[2])), f);
    },
    normalize: (v) => String(v).replace(/\s/g, ''),
    excelHint: () => ({
      zh: '经度,纬度,如 112.938814,28.228209',
      en: 'longitude,latitude e.g. 112.938814,28.228209',
    }),
    sample: (_f, n) => `112.93${String(n % 10000).padStart(4, '0')},28.228209`,
    refuses: [
      ['a longitude past 180', '200,10'],
      ['one number', '112.9'],
      ['words', 'east,north'],
    ],
  },
  polygon: {
    column: 'text',
    filter: 'text',
    picked: false,
    max: 200_000,
    textRules: false,
    check: (s, f) => rule(s.length <= (f.max ?? 200_000) && isPolygon(s), f),
    normalize: (v) => JSON.stringify(JSON.parse(String(v))),
    sample: (_f, n) =>
      JSON.stringify([
        [112.93, 28.22],
        [112.94, 28.22],
        [112.94, 28.23 + (n % 10) / 1000],
      ]),
    refuses: [
      ['two corners', '[[1,2],[3,4]]'],
      ['not JSON', '[[1,2'],
      ['a corner off the globe', '[[200,1],[1,1],[1,2]]'],
    ],
  },
  polyline: {
    column: 'text',
    filter: 'text',
    picked: false,
    max: 200_000,
    textRules: false,
    check: (s, f) => rule(s.length <= (f.max ?? 200_000) && isPointList(s, 2), f),
    normalize: (v) => JSON.stringify(JSON.parse(String(v))),
    sample: (_f, n) =>
      JSON.stringify([
        [112.93, 28.22],
        [112.935, 28.225],
        [112.94, 28.23 + (n % 10) / 1000],
      ]),
    refuses: [
      ['one point', '[[112.93,28.22]]'],
      ['not JSON', '[[1,2'],
      ['a point off the globe', '[[200,1],[1,1]]'],
      ['a point of three numbers', '[[1,2,3],[1,1]]'],
    ],
  },
  json: {
    column: 'text',
    filter: 'text',
    picked: false,
    max: 65_535,
    textRules: false,
    check(s, f) {
      const v = parseJson(s);
      return rule(s.length <= (f.max ?? 65_535) && v !== null && typeof v === 'object', f);
    },
    normalize: (v) => JSON.stringify(JSON.parse(String(v))),
    sample: (_f, n) => JSON.stringify({ interval: 60, n }),
    refuses: [
      ['not JSON', '{bad'],
      ['a bare number', '42'],
    ],
  },
  videoUrl: {
    column: 'varchar',
    filter: 'text',
    picked: false,
    max: 500,
    textRules: true,
    check: (s, f) => rule(isVideoUrl(s), f),
    excelHint: () => ({
      zh: '视频地址,如 https://…/live.m3u8',
      en: 'video address, e.g. https://…/live.m3u8',
    }),
    sample: (_f, n) => `https://video.example.com/live/${n}.m3u8`,
    refuses: [
      ['a script', 'javascript:alert(1)'],
      ['another protocol', 'ftp://example.com/a.mp4'],
      ['another site without a scheme', '//evil.example/live.m3u8'],
    ],
  },
  video: {
    column: 'varchar',
    filter: 'text',
    picked: true,
    max: 255,
    textRules: false,
    check: (s, f) => rule(s.length <= (f.max ?? 255) && ISSUED_VIDEO_PATH.test(s), f),
    sample: (_f, n) => `/api/dfem-hope-manage/file/video/${uuidOf(n)}.mp4`,
    refuses: [
      ['another site', 'https://evil.example/a.mp4'],
      ['a program', `/api/dfem-hope-manage/file/video/${uuidOf(1)}.exe`],
      [
        'two files',
        `/api/dfem-hope-manage/file/video/${uuidOf(1)}.mp4,/api/dfem-hope-manage/file/video/${uuidOf(2)}.mp4`,
      ],
    ],
  },
  richText: {
    column: 'text',
    filter: 'text',
    picked: false,
    max: 100_000,
    textRules: true,
    // what may stay in it is the server's to decide (platform/crud/kinds.ts cleans it before it is stored)
    sample: (_f, n) => `<p>第${n}段<strong>加粗</strong></p>`,
    refuses: [],
  },
};

export const fieldKind = (f: Pick<FieldDef, 'type'>): FieldKind => FIELD_KINDS[f.type];

/** A value as a list answers it: a personal number of a masked kind masked, anything else as it is. */
export function listValue(f: Pick<FieldDef, 'type'>, v: unknown): unknown {
  const how = fieldKind(f).masked;
  return how && typeof v === 'string' && v !== '' ? maskForNotice(how, v) : v;
}
