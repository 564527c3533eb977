/** The ids a request names (query keys and a path's `{id}`), each checked before any query is built. */
import { isId } from '@smart/contracts';
import type { FastifyRequest } from 'fastify';
import { badRequest, invalidField } from '../http/errors';

/** the one id of the query key `name`: a 400 naming it unless it is one (`valid`: a keyed resource's key) */
export function idParam(req: FastifyRequest, name: string, valid: (s: string) => boolean = isId): string {
  const v = (req.query as Record<string, unknown>)[name];
  const s = Array.isArray(v) ? v[0] : v;
  if (typeof s !== 'string' || !valid(s)) throw invalidField(name);
  return s;
}

/** the one id of a path's `{id}` segment (`delete/{id}`): a 400 naming `id` unless it is one */
export function pathId(req: FastifyRequest, valid: (s: string) => boolean): string {
  const v = (req.params as Record<string, unknown>).id;
  if (typeof v !== 'string' || !valid(v)) throw invalidField('id');
  return v;
}

/** the comma-joined ids of the query key `name` (at most 1000), each checked as `idParam` checks one */
export function idsParam(req: FastifyRequest, name = 'ids', valid: (s: string) => boolean = isId): string[] {
  const v = (req.query as Record<string, unknown>)[name];
  const s = Array.isArray(v) ? v.join(',') : v;
  if (typeof s !== 'string' || !s) throw badRequest('idsRequired');
  const ids = [...new Set(s.split(',').map((x) => x.trim()))];
  if (ids.length > 1000 || !ids.every(valid)) throw invalidField(name);
  return ids;
}
