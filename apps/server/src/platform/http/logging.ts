import type { FastifyRequest } from 'fastify';

/** Query keys whose values never reach a log line (the token endpoint takes credentials in the query). */
const SECRET_KEYS = /pass(word)?|token|secret|captcha|code$|^code/i;

export function sanitizeUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) if (SECRET_KEYS.test(key)) params.set(key, '***');
  return `${url.slice(0, q)}?${params.toString()}`;
}

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
  serializers: {
    req(req: FastifyRequest) {
      return { method: req.method, url: sanitizeUrl(req.url), remoteAddress: req.ip };
    },
  },
});
