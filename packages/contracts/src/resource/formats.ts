import type { Text2 } from './types';

/**
 * The formats and messages the field kinds (kinds.ts) check values against: phone numbers, calendar days,
 * resident ID numbers, issued upload paths. Pure functions, run on both ends.
 */

export const PHONE_MESSAGES = {
  empty: { zh: '手机号码不能为空', en: 'phone number cannot be empty' },
  length: { zh: '手机号码长度不为11位', en: 'phone number length is not 11' },
  format: { zh: '手机号码格式不正确', en: 'phone number format is incorrect' },
} as const;

export const MOBILE = /^1[3-9]\d{9}$/;
/** a landline: area code 0xx or 0xxx, a 7–8 digit number, an optional extension (0731-84561234-801) */
export const LANDLINE = /^0\d{2,3}-?\d{7,8}(?:-\d{1,6})?$/;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const DATETIME_OPTIONAL_SECONDS = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The range of an `int` field (a PostgreSQL integer column) whatever its own min and max say. */
export const INT_MIN = -2147483648;
export const INT_MAX = 2147483647;
/** The largest magnitude of a `decimal` field without its own max: the widest column is numeric(14,2). */
export const DECIMAL_MAX = 999_999_999_999.99;
/** A dictionary key is kept in a varchar(10) or an integer column. */
export const DICT_KEY_MAX = 10;

/** A real day of the calendar (year 1 on): 2024-02-29 is one, 2024-02-30, 2023-02-29 and 2024-13-01 are not. */
export function isCalendarDay(y: number, m: number, d: number): boolean {
  if (!Number.isInteger(y) || y < 1 || m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

/** `YYYY-MM-DD` naming a real day. */
export function isDate(s: string): boolean {
  const m = DATE.exec(s);
  return !!m && isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/**
 * `YYYY-MM-DD HH:mm:ss` (or, with `optionalSeconds`, also `YYYY-MM-DD HH:mm`) naming a real day and a real
 * time of it: 00:00:00 to 23:59:59.
 */
export function isDateTime(s: string, optionalSeconds = false): boolean {
  const m = (optionalSeconds ? DATETIME_OPTIONAL_SECONDS : DATETIME).exec(s);
  return (
    !!m &&
    isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3])) &&
    Number(m[4]) <= 23 &&
    Number(m[5]) <= 59 &&
    Number(m[6] ?? 0) <= 59
  );
}

/** Text PostgreSQL cannot store: a NUL character. */
export const hasNul = (s: string) => s.includes('\u0000');

/** A text with its `{name}` placeholders filled, in both languages. */
export const fill = (t: Text2, vars: Record<string, string | number>): Text2 => {
  let { zh, en } = t;
  for (const [k, v] of Object.entries(vars)) {
    zh = zh.replaceAll(`{${k}}`, String(v));
    en = en.replaceAll(`{${k}}`, String(v));
  }
  return { zh, en };
};

/** A field message with the field's label put in. */
export function localize(t: Text2, label: Text2): Text2 {
  return { zh: t.zh.replaceAll('{label}', label.zh), en: t.en.replaceAll('{label}', label.en) };
}

export const FIELD_MESSAGES = {
  required: { zh: '请输入{label}', en: 'please enter {label}' },
  requiredSelect: { zh: '请选择{label}', en: 'please select {label}' },
  tooLong: { zh: '{label}长度不能超过{max}个字符', en: '{label} must be at most {max} characters' },
  tooShort: { zh: '{label}长度不能少于{min}个字符', en: '{label} must be at least {min} characters' },
  format: { zh: '{label}格式不正确', en: '{label} has an incorrect format' },
  number: { zh: '{label}必须是数字', en: '{label} must be a number' },
  range: { zh: '{label}超出允许范围', en: '{label} is out of range' },
  places: { zh: '{label}最多{places}位小数', en: '{label} has at most {places} decimal places' },
  rangeOrder: { zh: '{label}的开始日期不能晚于结束日期', en: '{label} cannot start after it ends' },
  future: { zh: '{label}不能晚于今天', en: '{label} cannot be after today' },
} as const;

/**
 * An image field holds only paths the server itself issued for an upload (avatar or business image, a
 * random name): never another URL, another API path (an <img> would call it) or a path with `..`.
 */
export const ISSUED_IMAGE_PATH =
  /^\/api\/(?:dfem-resource\/file\/avatar|dfem-hope-manage\/file\/image)\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:png|jpg)$/;

/** A file field holds only paths the server issued for an attachment upload (checked by content there). */
export const ISSUED_FILE_PATH =
  /^\/api\/dfem-hope-manage\/file\/attach\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:pdf|docx|xlsx|pptx|png|jpg)$/;

/** A video field holds only a path the server issued for a video upload (MP4 or WebM, checked by content). */
export const ISSUED_VIDEO_PATH =
  /^\/api\/dfem-hope-manage\/file\/video\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:mp4|webm)$/;

/** The largest video upload the screen lets through (the server's VIDEO_MAX_MB, by default the same, decides). */
export const VIDEO_MAX_BYTES = 200 * 1024 * 1024;

export const ID_CARD_MESSAGES = {
  format: { zh: '{label}应为18位,末位可为X', en: '{label} must be 18 characters, the last may be X' },
  region: { zh: '{label}的地区码无效', en: '{label} has an invalid region code' },
  birth: { zh: '{label}中的出生日期无效', en: '{label} holds an invalid birth date' },
  check: { zh: '{label}校验位不正确', en: '{label} has a wrong check digit' },
} as const;

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';
const PROVINCES = new Set([
  11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52, 53, 54, 61,
  62, 63, 64, 65, 71, 81, 82, 83, 91,
]);

/** The GB 11643 check character of the first 17 digits. */
export function idCardCheckDigit(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i];
  return ID_CHECK[sum % 11];
}

/** Why a resident ID number is invalid, or null: 18 characters, a province, a real past date, the check digit. */
export function idCardProblem(id: string): keyof typeof ID_CARD_MESSAGES | null {
  if (!/^\d{17}[\dXx]$/.test(id)) return 'format';
  if (!PROVINCES.has(Number(id.slice(0, 2)))) return 'region';
  const y = Number(id.slice(6, 10));
  const m = Number(id.slice(10, 12));
  const d = Number(id.slice(12, 14));
  const date = new Date(Date.UTC(y, m - 1, d));
  if (
    y < 1900 ||
    date.getUTCFullYear() !== y ||
    date.getUTCMonth() !== m - 1 ||
    date.getUTCDate() !== d ||
    date.getTime() > Date.now()
  )
    return 'birth';
  return idCardCheckDigit(id) === id[17].toUpperCase() ? null : 'check';
}

/** The birth date (YYYY-MM-DD) and sex (1 male, 2 female: the 17th digit's parity) a valid ID number states. */
export function idCardInfo(id: string): { birthDate: string; sex: '1' | '2' } | null {
  if (idCardProblem(id)) return null;
  return {
    birthDate: `${id.slice(6, 10)}-${id.slice(10, 12)}-${id.slice(12, 14)}`,
    sex: Number(id[16]) % 2 === 1 ? '1' : '2',
  };
}

/**
 * A value as a public notice shows it (policy: never a full ID number, phone or bank account): an ID number
 * keeps its first 6 and last 4 characters (the area and the check), a mobile its first 3 and last 4, a
 * landline its area code and last 2, any other personal text its last 4 — the rest is `*`.
 */
export function maskForNotice(kind: 'idcard' | 'phone' | 'text', value: string): string {
  const v = value.trim();
  if (!v) return v;
  const keep = (head: number, tail: number) =>
    v.length <= head + tail
      ? '*'.repeat(v.length)
      : v.slice(0, head) + '*'.repeat(v.length - head - tail) + v.slice(-tail);
  if (kind === 'idcard') return keep(6, 4);
  if (kind === 'phone') {
    if (MOBILE.test(v)) return keep(3, 4);
    const dash = v.indexOf('-');
    return dash > 0
      ? v.slice(0, dash + 1) + '*'.repeat(Math.max(0, v.length - dash - 3)) + v.slice(-2)
      : keep(0, 2);
  }
  return keep(0, 4);
}

/**
 * A device's national code of GB/T 28181 (video surveillance networking): 20 digits — 1-8 the centre's
 * administrative division (GB/T 2260: the first two a province, 11–82), 9-10 the trade, 11-13 the device
 * type, 14 the network, 15-20 a serial number. A camera here is a video device: a camera (131), an IP camera
 * (132), or the recorder or encoder it is reached through (DVR 111, video server 112, encoder 113, NVR 118).
 */
export const GB_DEVICE_MESSAGES = {
  format: { zh: '{label}应为20位数字', en: '{label} must be 20 digits' },
  region: { zh: '{label}的省级区划代码无效', en: '{label} has an invalid province code' },
  type: { zh: '{label}不是摄像机或视频设备的编码', en: '{label} is not a camera or video device code' },
} as const;

/** What is wrong with a GB/T 28181 video device code, or null when it is a valid one. */
export function gbDeviceIdProblem(id: string): keyof typeof GB_DEVICE_MESSAGES | null {
  if (!/^\d{20}$/.test(id)) return 'format';
  // the resident ID's province codes, less 83 and 91 (no such division in GB/T 2260's centres)
  const province = Number(id.slice(0, 2));
  if (!PROVINCES.has(province) || province > 82) return 'region';
  return ['111', '112', '113', '118', '131', '132'].includes(id.slice(10, 13)) ? null : 'type';
}

export const CREDIT_CODE_MESSAGES = {
  format: {
    zh: '{label}应为18位数字或大写字母(不含I、O、Z、S、V)',
    en: '{label} must be 18 digits or capital letters (no I, O, Z, S or V)',
  },
  check: { zh: '{label}校验位不正确', en: '{label} has a wrong check character' },
} as const;

/** The characters of a unified social credit code (GB 32100-2015): digits and capitals but I, O, Z, S, V. */
const CREDIT_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const CREDIT_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** The GB 32100 check character of a credit code's first 17 characters (each one of CREDIT_CHARS). */
export function creditCodeCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += CREDIT_CHARS.indexOf(first17[i]) * CREDIT_WEIGHTS[i];
  return CREDIT_CHARS[(31 - (sum % 31)) % 31];
}

/**
 * Why a unified social credit code is invalid, or null: 18 characters (a registering authority and kind, a
 * six-digit division, a nine-character organisation code, the check character), the check of GB 32100.
 */
export function creditCodeProblem(code: string): keyof typeof CREDIT_CODE_MESSAGES | null {
  if (!/^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/.test(code)) return 'format';
  return creditCodeCheckChar(code) === code[17] ? null : 'check';
}
