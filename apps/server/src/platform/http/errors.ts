import type { MessageKey } from './messages';
import { t } from './messages';

/** An error the client is meant to see: HTTP status equals the envelope code (api-contract §Envelope). */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500,
    readonly key: MessageKey,
    readonly vars?: Record<string, string | number>,
  ) {
    super(key);
  }
}

export const badRequest = (key: MessageKey = 'badRequest', vars?: Record<string, string | number>) =>
  new ApiError(400, key, vars);
export const unauthorized = (key: MessageKey = 'unauthorized') => new ApiError(401, key);
export const forbidden = (key: MessageKey = 'forbidden') => new ApiError(403, key);
export const notFound = () => new ApiError(404, 'notFound');

/** A failure of the token endpoint: flat body `{ error_code, error_description }` as OAuth clients expect. */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401 | 429,
    readonly key: MessageKey,
    readonly vars?: Record<string, string | number>,
  ) {
    super(key);
  }
}

/**
 * A refusal worded by its caller in both languages (a remote service's error, a rule of an area's own), with
 * what the client may act on in `data` (WeChat's errcode, the offending button): status and envelope as ApiError.
 */
export class TextError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 413 | 429 | 502 | 503,
    readonly text: { zh: string; en: string },
    readonly data: Record<string, unknown> | null = null,
  ) {
    super(text.en);
  }
}

/** Bad input in one field: 400 with `data.field` and the message in the request's language. */
export class FieldInputError extends Error {
  constructor(
    readonly field: string,
    readonly text: { zh: string; en: string },
  ) {
    super(text.en);
  }
}

/**
 * A 400 naming a query or body field whose value is invalid, in both languages: by its label where the
 * caller knows it (a resource field), else by its key; `data.field` is always the key.
 */
export function invalidField(
  field: string,
  key: 'fieldInvalid' | 'unknownFilter' | 'unknownSort' = 'fieldInvalid',
  label?: { zh: string; en: string },
) {
  return new FieldInputError(field, {
    zh: t('zh', key, { field: label?.zh ?? field }),
    en: t('en', key, { field: label?.en ?? field }),
  });
}

/** Bad rows of an import: 400 listing every row with its field and reason; nothing was written. */
export class RowsInputError extends Error {
  constructor(readonly rows: { row: number; field: string; message: { zh: string; en: string } }[]) {
    super('bad rows');
  }
}

/**
 * PostgreSQL's data exceptions (SQLSTATE class 22: a value its column or cast refuses — text too long
 * 22001, a number out of range 22003, a bad date or time 22007/22008, a NUL or bad encoding 22021, text
 * that is no number 22P02, …): the SQLSTATE when `err` (or what it wraps: Drizzle puts the driver's error
 * in `cause`) is one, else undefined. Both drivers, pg and PGlite, set `code`.
 *
 * A safety net: bad input is meant to be refused field by field before any SQL is built; one that gets
 * this far is still the client's (a 400), but is logged so the missing check can be added.
 */
export function dataExceptionCode(err: unknown): string | undefined {
  const code = sqlState(err);
  return code && /^22[0-9A-Z]{3}$/.test(code) ? code : undefined;
}

/** The SQLSTATE of a database error, or of the driver error it wraps (Drizzle: `cause`). */
export function sqlState(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A unique index refused the write (SQLSTATE 23505): two requests raced past the check every write makes
 * first (the same account submitted twice at once). The loser is told the value is taken, not 500.
 */
export const isUniqueViolation = (err: unknown) => sqlState(err) === '23505';

/** the network errors of a connection to the database or the shared store that is down or was cut */
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * What node-postgres and ioredis say, without a code, when their connection is gone or none can be had: a
 * connection ended under a query, the pool's wait for a connection timed out, a command given up after the
 * store's retries.
 */
const CONNECTION_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed|Reached the max retries per request limit|Stream isn't writeable)/i;

/**
 * Whether a failure is the database or the shared store being unreachable (restarting, cut off, out of
 * connections) rather than a fault of the request or the code: answered 503 with Retry-After, the request
 * may be repeated once it is back. SQLSTATE class 08 (connection exception), 57P01–57P03 (the server shutting
 * down, crashed, or starting up), 53300 (too many connections); the drivers' errno and wording otherwise.
 */
export function isUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message, name } = e as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof code === 'string') {
      if (CONNECTION_ERRNOS.has(code)) return true;
      if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code) || code === '53300') return true;
    }
    if (name === 'MaxRetriesPerRequestError') return true;
    if (typeof message === 'string' && CONNECTION_LOST.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
