import type { Envelope } from '@smart/contracts';
import type { FastifyRequest } from 'fastify';
import { t } from './messages';

/** The success envelope of api-contract §Envelope, its msg in the request's language. */
export function ok<T>(req: FastifyRequest, data: T): Envelope<T> {
  return { code: 200, success: true, data, msg: t(req.lang, 'ok') };
}
