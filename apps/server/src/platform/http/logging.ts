import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { isSecretKey, scrubJsonMembers, scrubText, scrubValue } from './scrub';

/**
 * Query keys whose values never reach a log line (the token endpoint takes credentials in the query), besides
 * every key the scrubber calls secret (`blade-auth`, `access_token`, `authorization`, `pwd`, …).
 */
const SECRET_KEYS = /pass(word)?|token|secret|captcha|code$|^code|auth/i;

/** A URL with the values of its secret query keys masked (`***`), then scrubbed as any logged text. */
export function sanitizeUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) if (SECRET_KEYS.test(key) || isSecretKey(key)) params.set(key, '***');
  return `${url.slice(0, q)}?${params.toString()}`;
}

/** Keys that pino hands to a serializer of their own below (which keeps only what is safe, scrubbed). */
const SERIALIZED = ['req', 'res', 'err'] as const;

/** Where pino keeps a logger's serialised bindings (its own and its parents'). */
const BINDINGS = pino.symbols.chindingsSym;
/** what Fastify binds to each request's logger: the id it counts (`req-`, base 36; no 11-digit run before 36¹⁰ requests) */
const REQUEST_ID = /,"reqId":"req-[0-9a-z]{1,10}"$/;
/**
 * The bindings of the last parent whose request children were found clean: a request's child differs from
 * them only by its generated id, so it is not scrubbed again (once per request, that cost as much as the
 * rest of the request's logging).
 */
let cleanParent: string | undefined;

type LogArgs = unknown[];
type SerializedError = { type: string; message: string; stack: string; [key: string]: unknown };

/**
 * Pino's options. Every part of every line passes the one scrubber (`scrub.ts`):
 * - `hooks.logMethod`: the message and its format arguments (also the message pino would take from an
 *   error logged without one);
 * - `formatters.log`: the logged object, walked by `scrubValue` (secret keys replaced, a failed query's
 *   parameters dropped, errors made plain and scrubbed);
 * - `serializers.err`: every `err`, Fastify's own request-error lines included, through `scrubValue`;
 *   `serializers.req` / `res` keep only method, sanitised and scrubbed URL, address / status code;
 * - `onChild`: a child logger's bindings (Fastify's `reqId`, anything a module binds).
 */
export const loggerOptions = (level: string) => ({
  level,
  redact: {
    paths: [
      'req.headers.authorization',
      'req.headers["blade-auth"]',
      'req.headers["captcha-code"]',
      'req.headers.cookie',
      'res.headers["set-cookie"]',
    ],
    censor: '***',
  },
  hooks: {
    logMethod(this: unknown, args: LogArgs, method: (...args: LogArgs) => void) {
      const out = args.map((a, i) =>
        typeof a === 'string'
          ? scrubText(a)
          : i > 0 && a !== null && typeof a === 'object'
            ? scrubValue(a)
            : a,
      );
      // `log.error(err)` and `log.error({ err })` take the error's message as theirs: give it scrubbed
      const first = args[0];
      if (first !== null && typeof first === 'object' && args[1] === undefined) {
        const err = first instanceof Error ? first : (first as { err?: { message?: unknown } }).err;
        const message = err && typeof err === 'object' ? err.message : undefined;
        if (typeof message === 'string' && (first instanceof Error || !('msg' in first)))
          out[1] = scrubText(message);
      }
      return method.apply(this, out);
    },
  },
  formatters: {
    log(obj: Record<string, unknown>) {
      const rest: Record<string, unknown> = {};
      for (const key of Object.keys(obj))
        if (!(SERIALIZED as readonly string[]).includes(key)) rest[key] = obj[key];
      const out = scrubValue(rest) as Record<string, unknown>;
      for (const key of SERIALIZED) if (obj[key] !== undefined) out[key] = obj[key];
      return out;
    },
  },
  onChild(child: FastifyBaseLogger) {
    const held = child as unknown as Record<symbol, unknown>;
    const bindings = held[BINDINGS];
    if (typeof bindings !== 'string') return;
    const id = REQUEST_ID.exec(bindings);
    if (id && bindings.length - id[0].length === cleanParent?.length && bindings.startsWith(cleanParent))
      return;
    const scrubbed = scrubJsonMembers(bindings);
    held[BINDINGS] = scrubbed;
    if (id && scrubbed === bindings) cleanParent = bindings.slice(0, id.index);
  },
  serializers: {
    req(req: FastifyRequest) {
      const url = typeof req.url === 'string' ? scrubText(sanitizeUrl(req.url)) : undefined;
      return { method: req.method, url, remoteAddress: req.ip };
    },
    res(reply: Pick<FastifyReply, 'statusCode'>) {
      return { statusCode: reply.statusCode };
    },
    err: (err: unknown) => scrubValue(err) as SerializedError,
  },
});
