/** Business constants of spec §9, shared by server and web so both ends agree. */
export const DEFAULT_TENANT_ID = '000000';
export const TOKEN_HEADER = 'Blade-Auth';
export const TENANT_HEADER = 'Tenant-Id';
export const PAGE_SIZES = [10, 30, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 200;
export const REQUEST_TIMEOUT_MS = 30_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
/** Token time (seconds): the web refreshes the access token when its age reaches this. */
export const DEFAULT_TOKEN_TIME = 3000;
export const TOKEN_CHECK_INTERVAL_MS = 10_000;
export const LOCK_PAGE = '/lock';
export const FIRST_PAGE = '/wel/index';
export const DEFAULT_LANGUAGE = 'zh';
export const DEFAULT_COLOR = '#409EFF';
export const DEFAULT_THEME = 'theme-default';
export const TAG_BADGE_MAX = 99;
export const PHONE_LENGTH = 11;
export const AVATAR_MAX_BYTES = 500 * 1024;
export const DICT_ROOT_CODE = 'DICT';
/** The seeded web client: the BladeX family's default, replaced per deployment. */
export const WEB_CLIENT_ID = 'saber';
export const WEB_CLIENT_SECRET = 'saber_secret';

/** The largest row id: ids are PostgreSQL bigints (64-bit, signed). */
export const MAX_ID = '9223372036854775807';

/** A row id as text: 1–19 digits within a bigint. Anything longer or larger is bad input, not a database error. */
export function isId(s: unknown): s is string {
  return typeof s === 'string' && /^\d{1,19}$/.test(s) && (s.length < 19 || s <= MAX_ID);
}

/** A comma list of ids (empty allowed). */
export function isIdList(s: unknown): s is string {
  return typeof s === 'string' && (s === '' || s.split(',').every(isId));
}

/** The time zone of a deployment that names none (`TZ`): the times the console shows and the days it counts. */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';
