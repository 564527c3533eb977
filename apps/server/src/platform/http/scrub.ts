/**
 * The one scrubber every log line goes through (`logging.ts` wires it into pino): no password, password
 * hash, md5, token, ID-card number or mobile number reaches the server log.
 *
 * - `scrubText(s)` masks what a secret looks like anywhere in a text: argon2/bcrypt hashes, JWTs, bearer
 *   and basic credentials, `password=…`-style pairs, 32-hex md5s, ID-card numbers (18 and 15 digits),
 *   mobile numbers; it cuts the bound parameters a failed query lists (`params: …`) and the values
 *   PostgreSQL quotes in a constraint's detail (`Key (…)=(…)`, `Failing row contains (…)`).
 * - `scrubValue(v)` walks a value (bounded depth, width and total size; cycles are cut): values under a
 *   secret-sounding key are replaced, a driver error's `params`/`parameters` are dropped, errors become
 *   plain objects (type, message, stack, their own properties, cause) and every string passes `scrubText`.
 */

/** Keys whose values never reach a log line; matched case-insensitively, ignoring `-` and `_`. */
const SECRET_KEY =
  /pass(?:word|wd)?$|password|passwd|pwd|secret|token|authori[sz]ation|cookie|hash|salt|idcard|idno|phone|mobile|bladeauth|credential|apikey|privatekey|captchacode|redeemcode/;
/** The bound parameters of a query (pg's DatabaseError, drizzle's DrizzleQueryError). */
const PARAMS_KEY = /^param(?:eter)?s$/i;

export const isSecretKey = (key: string) => SECRET_KEY.test(key.toLowerCase().replace(/[-_]/g, ''));

/** Secret names in `name=value` pairs (URLs, form bodies, messages) and in `"name": "value"` (JSON in text). */
const SECRET_NAME =
  /pass(?:word|wd)?|pwd|secret|token|authori[sz]ation|cookie|captcha|id_?card|phone|mobile/i;

type Rule = [RegExp, string | ((match: string, ...groups: string[]) => string)];

/** [pattern, replacement], applied in order. */
const TEXT_RULES: Rule[] = [
  // a failed query lists its bound parameters after the SQL: cut them (up to a stack frame, if any)
  [/\b(params|parameters): ?(?:(?!\n\s+at )[\s\S])*/g, '$1: [redacted]'],
  // PostgreSQL's detail of a unique / foreign-key / check violation quotes the row's values
  [
    /(\bKey \(.*?\)=\().*?(?=\) (?:already exists|is not present|conflicts with|is still referenced)|$)/gm,
    '$1[redacted]',
  ],
  [/(\bFailing row contains ).*$/gm, '$1([redacted])'],
  [/\$argon2(?:id|i|d)\$[A-Za-z0-9$=,+/._-]*/g, '[redacted:argon2]'],
  [/\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{20,}/g, '[redacted:hash]'],
  [/eyJ[\w-]{4,}(?:\.[\w-]*){0,2}/g, '[redacted:jwt]'],
  [/\b(bearer)\s+[\w.~+/=-]+/gi, '$1 [redacted]'],
  [/\b(basic)\s+[A-Za-z0-9+/]{12,}={0,2}(?![\w+/=])/gi, '$1 [redacted]'],
  // names are matched in a callback, not in the pattern: a long word must not make the pattern backtrack
  [/(?<![\w.-])([\w.-]+)=[^&\s"',;]+/g, (m, name) => (SECRET_NAME.test(name) ? `${name}=***` : m)],
  [
    /("([\w.-]+)"\s*:\s*)(?:"(?:[^"\\]|\\.)*"|[\w.+-]+)/g,
    (m, head, name) => (SECRET_NAME.test(name) ? `${head}"[redacted]"` : m),
  ],
  [/(?<![0-9a-fA-F])[0-9a-fA-F]{32}(?![0-9a-fA-F])/g, '[redacted:md5]'],
  // ID-card numbers: 17 digits and a digit or X; the old form of 15 digits
  [/(?<!\d)\d{17}[\dXx](?!\d)/g, '[redacted:idcard]'],
  [/(?<!\d)\d{15}(?![\dXx])/g, '[redacted:idcard]'],
  // mobile numbers, with or without the country code and separators
  [/(?<!\d)(?:\+?86[ -]?)?1[3-9]\d(?:[ -]?\d{4}){2}(?!\d)/g, '[redacted:phone]'],
];

/** Whatever any rule above could match contains one of these: most texts are passed over at once. */
const SUSPECT =
  /param|Key \(|Failing row|\$argon2|\$2|eyJ|bearer|basic|(?:pass|pwd|secret|token|authori|cookie|captcha|card|phone|mobile)[\w.-]*(?:=|"\s*:)|\d{11}|\d[ -]\d{4}[ -]\d{4}|[0-9a-f]{32}/i;

/** Masks every secret-looking part of a text (see the file's comment). */
export function scrubText(s: string): string {
  if (!SUSPECT.test(s)) return s;
  let out = s;
  for (const [re, to] of TEXT_RULES) out = out.replace(re, to as string);
  return out;
}

export interface ScrubLimits {
  /** nesting below the value itself */
  depth: number;
  /** properties of one object, items of one array */
  width: number;
  /** objects and arrays walked in all */
  nodes: number;
}

const LIMITS: ScrubLimits = { depth: 8, width: 100, nodes: 1000 };

interface Walk {
  limits: ScrubLimits;
  /** the objects on the path from the root (a cycle points at one of them) */
  path: Set<object>;
  nodes: number;
}

/** A copy of `v` safe to log (see the file's comment). Never throws, never mutates `v`. */
export function scrubValue(v: unknown, limits: Partial<ScrubLimits> = {}): unknown {
  return walk(v, '', 0, { limits: { ...LIMITS, ...limits }, path: new Set(), nodes: 0 });
}

function walk(v: unknown, key: string, depth: number, w: Walk): unknown {
  if (v === null || v === undefined || typeof v === 'boolean') return v;
  if (key) {
    if (PARAMS_KEY.test(key) && (Array.isArray(v) || typeof v === 'string'))
      return Array.isArray(v) ? `[redacted: ${v.length} params]` : '[redacted]';
    if (isSecretKey(key)) return '[redacted]';
  }
  switch (typeof v) {
    case 'string':
      return scrubText(v);
    case 'number':
      // a phone or ID-card number typed as a number (ids are 19-digit strings; times have 13 digits)
      return Number.isInteger(v) && Math.abs(v) >= 1e10 ? scrubDigits(String(v), v) : v;
    case 'bigint':
      return scrubDigits(String(v), v);
    case 'function':
    case 'symbol':
      return undefined;
  }
  const o = v as object;
  if (o instanceof Date) return o;
  if (ArrayBuffer.isView(o) || o instanceof ArrayBuffer) return `[binary ${o.byteLength} bytes]`;
  if (w.path.has(o)) return '[circular]';
  if (depth > w.limits.depth) return '[too deep]';
  if (++w.nodes > w.limits.nodes) return '[truncated]';
  w.path.add(o);
  try {
    if (isErrorLike(o)) return errorObject(o, depth, w);
    if (Array.isArray(o)) return list(o, depth, w);
    if (o instanceof Set) return list([...o], depth, w);
    if (o instanceof Map)
      return entries(
        [...o].map(([k, x]) => [String(k), x]),
        depth,
        w,
      );
    const toJSON = (o as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      const j = toJSON.call(o);
      if (j !== o) return walk(j, '', depth, w);
    }
    return entries(ownEntries(o), depth, w);
  } catch {
    return '[unserialisable]';
  } finally {
    w.path.delete(o);
  }
}

function scrubDigits(text: string, v: number | bigint): unknown {
  const s = scrubText(text);
  return s === text ? v : s;
}

function list(a: unknown[], depth: number, w: Walk): unknown[] {
  const n = Math.min(a.length, w.limits.width);
  const out: unknown[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = walk(a[i], '', depth + 1, w);
  if (a.length > n) out.push(`[+${a.length - n} more]`);
  return out;
}

function ownEntries(o: object): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const k of Object.keys(o)) {
    let x: unknown;
    try {
      x = (o as Record<string, unknown>)[k];
    } catch {
      x = '[unreadable]';
    }
    out.push([k, x]);
  }
  return out;
}

function entries(list: [string, unknown][], depth: number, w: Walk): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const n = Math.min(list.length, w.limits.width);
  for (let i = 0; i < n; i++) {
    const [k, x] = list[i];
    const s = walk(x, k, depth + 1, w);
    if (s !== undefined) out[scrubText(k)] = s;
  }
  if (list.length > n) out['[more]'] = list.length - n;
  return out;
}

function isErrorLike(o: object): o is Error {
  if (o instanceof Error) return true;
  const e = o as Partial<Error>;
  return typeof e.message === 'string' && typeof e.stack === 'string';
}

/** An error as pino's serializer would show it (type, message, stack, own properties), scrubbed. */
function errorObject(err: Error, depth: number, w: Walk): Record<string, unknown> {
  const message = typeof err.message === 'string' ? err.message : String(err.message);
  const out: Record<string, unknown> = {
    type: (Object.getPrototypeOf(err)?.constructor?.name as string | undefined) || err.name || 'Error',
    message: scrubText(message),
  };
  if (typeof err.stack === 'string') {
    // the stack repeats the message: scrub it as the message, then what the frames say
    const stack = message ? err.stack.split(message).join(out.message as string) : err.stack;
    out.stack = scrubText(stack);
  }
  for (const [k, x] of ownEntries(err)) {
    if (k === 'message' || k === 'stack' || k === 'type') continue;
    const s = walk(x, k, depth + 1, w);
    if (s !== undefined) out[k] = s;
  }
  // `new Error(m, { cause })` keeps the cause as a property that is not enumerable
  if (!('cause' in out) && 'cause' in err && err.cause !== undefined)
    out.cause = walk(err.cause, 'cause', depth + 1, w);
  if (err instanceof AggregateError && !('errors' in out))
    out.errors = walk(err.errors, 'errors', depth + 1, w);
  return out;
}

/** Anything `isSecretKey` matches contains one of these (on a lower-cased text without `-` and `_`). */
const KEY_HINT =
  /pass|pwd|secret|token|authori|cookie|hash|salt|idcard|idno|phone|mobile|bladeauth|credential|apikey|privatekey|captcha/;

/**
 * Scrubs a fragment of serialised JSON members (`,"a":1,"b":"x"`: how pino keeps a child logger's
 * bindings) as `scrubValue` would scrub the object they make; answers the fragment itself if clean.
 */
export function scrubJsonMembers(fragment: string): string {
  if (!fragment || (!SUSPECT.test(fragment) && !KEY_HINT.test(fragment.toLowerCase().replace(/[-_]/g, ''))))
    return fragment;
  const lead = fragment.startsWith(',') ? ',' : '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(`{${fragment.slice(lead.length)}}`);
  } catch {
    return scrubText(fragment);
  }
  const json = JSON.stringify(scrubValue(parsed));
  return json.length > 2 ? `${lead}${json.slice(1, -1)}` : '';
}
