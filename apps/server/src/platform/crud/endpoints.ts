import type { SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { requirePermission } from '../access/permissions';
import { type RequestContext, requireCtx } from '../auth/context';
import { ok } from '../http/envelope';
import { invalidField } from '../http/errors';
import type { MountedResource } from './binding';

/**
 * Custom endpoints of a resource, declared on its binding (`ResourceHooks.endpoints`) and mounted by the
 * engine under the resource's path: each inherits the resource's permission code (with the endpoint's
 * suffix), its query checked by a strict schema, and the caller's row constraint (tenant, live rows, data
 * scope) handed to the handler, so a view beyond the list (households, a ranking) cannot forget them.
 */

export interface EndpointCall<Q> {
  req: FastifyRequest;
  ctx: RequestContext;
  /** the resource, as mounted (its table, columns, selection and answer) */
  resource: MountedResource;
  /** the caller's constraint on the resource's rows: add it to every query of them */
  scope: SQL;
  query: Q;
}

export interface ResourceEndpoint {
  method: 'GET' | 'POST';
  /** below the resource's path: `households` → `/<path>/households` */
  path: string;
  /** the permission code it needs: the resource's own with this suffix (`''` the screen's, `_edit`…) */
  codeSuffix?: string;
  query: z.ZodType;
  handler: (call: EndpointCall<never>) => Promise<unknown>;
}

/** Declares an endpoint, typing its handler's query from its schema. */
export function endpoint<S extends z.ZodType>(e: {
  method: 'GET' | 'POST';
  path: string;
  codeSuffix?: string;
  query: S;
  handler: (call: EndpointCall<z.infer<S>>) => Promise<unknown>;
}): ResourceEndpoint {
  return e as unknown as ResourceEndpoint;
}

export function mountEndpoints(app: FastifyInstance, m: MountedResource, endpoints: ResourceEndpoint[]) {
  for (const e of endpoints)
    app.route({
      method: e.method,
      url: `/${m.def.path}/${e.path}`,
      handler: async (req) => {
        const ctx = requireCtx(req);
        await requirePermission(m.db, req, `${m.def.permission}${e.codeSuffix ?? ''}`);
        const parsed = e.query.safeParse(req.query ?? {});
        if (!parsed.success) throw invalidField(String(parsed.error.issues[0]?.path[0] ?? 'query'));
        const scope = await m.constraint(ctx);
        return ok(req, await e.handler({ req, ctx, resource: m, scope, query: parsed.data as never }));
      },
    });
}
