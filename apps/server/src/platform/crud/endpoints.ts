import { routePrefix } from '@smart/contracts';
import { and, eq, type SQL, type Table } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { requireAnyPermission } from '../access/permissions';
import { type RequestContext, requireCtx } from '../auth/context';
import { ok } from '../http/envelope';
import { invalidField, notFound } from '../http/errors';
import { answerKept } from './answers';
import type { MountedResource, Row } from './binding';

/**
 * Custom endpoints of a resource, declared on its binding (`ResourceHooks.endpoints`) and mounted by the
 * engine under the resource's path: each inherits the resource's permission code (with the endpoint's
 * suffix), its query checked by a strict schema, and the caller's row constraint (tenant, live rows, data
 * scope) handed to the handler, so a view beyond the list (households, a ranking) cannot forget them.
 * An endpoint at the path of one of the engine's generic views (GET `tree`, `select`) replaces that view.
 */

export interface EndpointCall<Q, B = unknown> {
  req: FastifyRequest;
  /**
   * for headers (a one-time password is `no-store`): the engine sends the answer, unless the handler sent
   * its own (a streamed download) and returns this reply
   */
  reply: FastifyReply;
  ctx: RequestContext;
  /** the resource, as mounted (its table, columns, selection and answer) */
  resource: MountedResource;
  /** the caller's constraint on the resource's rows: add it to every query of them */
  scope: SQL;
  query: Q;
  /** the JSON body, checked by the endpoint's `body` schema (undefined without one) */
  body: B;
}

export interface ResourceEndpoint {
  method: 'GET' | 'POST';
  /** below the resource's path: `households` → `/<path>/households` */
  path: string;
  /**
   * the permission code it needs: the resource's own with this suffix (`''` the screen's, `_edit`…); with
   * several, any one of them
   */
  codeSuffix?: string | string[];
  /**
   * a picker every screen reads (a dictionary's entries, a parent select): any signed-in user may call it,
   * no permission code is asked, and its `scope` is the tenant's live rows without the data scope
   */
  picker?: boolean;
  query: z.ZodType;
  body?: z.ZodType;
  /** the largest body it reads, in bytes, when smaller than the server's (a report of the browser's errors) */
  bodyLimit?: number;
  /**
   * a figure many watch (a chart's history): its answer is kept while none of these tables, the ones its
   * handler reads, has changed (answers.ts `answerKept`); GET only
   */
  keptWhileUnchanged?: readonly (Table | string)[];
  handler: (call: EndpointCall<never, never>) => Promise<unknown>;
}

/** Declares an endpoint, typing its handler's query from its schema. */
export function endpoint<S extends z.ZodType, B extends z.ZodType = z.ZodUndefined>(e: {
  method: 'GET' | 'POST';
  path: string;
  codeSuffix?: string | string[];
  picker?: boolean;
  query: S;
  body?: B;
  bodyLimit?: number;
  keptWhileUnchanged?: readonly (Table | string)[];
  handler: (call: EndpointCall<z.infer<S>, z.infer<B>>) => Promise<unknown>;
}): ResourceEndpoint {
  return e as unknown as ResourceEndpoint;
}

export function mountEndpoints(app: FastifyInstance, m: MountedResource, endpoints: ResourceEndpoint[]) {
  for (const e of endpoints)
    app.route({
      method: e.method,
      url: `${routePrefix(m.def)}/${e.path}`,
      ...(e.bodyLimit ? { bodyLimit: e.bodyLimit } : {}),
      handler: async (req, reply) => {
        const ctx = requireCtx(req);
        const suffixes = Array.isArray(e.codeSuffix) ? e.codeSuffix : [e.codeSuffix ?? ''];
        if (!e.picker)
          await requireAnyPermission(
            m.db,
            req,
            suffixes.map((suffix) => `${m.def.permission}${suffix}`),
          );
        const parsed = e.query.safeParse(req.query ?? {});
        if (!parsed.success) throw invalidField(String(parsed.error.issues[0]?.path[0] ?? 'query'));
        let body: unknown;
        if (e.body) {
          const b = e.body.safeParse(req.body ?? {});
          if (!b.success) throw invalidField(String(b.error.issues[0]?.path[0] ?? 'body'));
          body = b.data;
        }
        const scope = await (e.picker ? m.tenantConstraint(ctx) : m.constraint(ctx));
        const call = () =>
          e.handler({
            req,
            reply,
            ctx,
            resource: m,
            scope,
            query: parsed.data as never,
            body: body as never,
          });
        if (e.keptWhileUnchanged && e.method === 'GET')
          return answerKept(req, reply, m.db, ctx, e.keptWhileUnchanged, call);
        const answer = await call();
        // a handler that sent its own answer (a streamed download) hands back the reply
        return answer === reply ? reply : ok(req, answer);
      },
    });
}

/** The row `id` of an endpoint's resource within the caller's constraint (`scope`); 404 when there is none. */
export async function rowInScope(resource: MountedResource, scope: SQL, id: string): Promise<Row> {
  const [row] = await resource.db
    .select()
    .from(resource.table)
    .where(and(scope, eq(resource.cols.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return row as Row;
}
