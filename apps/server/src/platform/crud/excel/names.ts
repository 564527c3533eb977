import type { ResourceDef, Text2 } from '@smart/contracts';
import type { FastifyRequest } from 'fastify';

/** A resource's file name in the request's language, with a suffix (导入模板 / -template). */
export const fileName = (def: ResourceDef, req: FastifyRequest, suffix: Text2 = { zh: '', en: '' }) =>
  `${def.excel!.fileName[req.lang]}${suffix[req.lang]}`;
