import { type AreaDef, areaResources } from '@smart/contracts';
import type { SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppDeps } from '../app';
import { requireAnyPermission } from './access/permissions';
import { type RequestContext, requireCtx } from './auth/context';
import type { MountedResource, ResourceHooks } from './crud/binding';
import type { Db } from './db';
import { ok } from './http/envelope';
import type { FileStorage } from './storage';

/**
 * A business area's server part: what the engine cannot derive from the area's definitions. Every
 * resource of the area is mounted on the engine over its derived table (platform/crud/model.ts `tableOf`)
 * whether or not it appears here; `hooks` name only the resources whose behaviour differs from the pattern.
 * `modules/areas.ts` lists every area once; the server mounts, routes and seeds from that list.
 */
export interface ServerArea {
  area: AreaDef;
  /** the hooks of the area's resources that have behaviour beyond the pattern, by resource key */
  hooks?: (deps: AreaDeps) => Readonly<Record<string, ResourceHooks>>;
  /** routes that are no resource's (an overview's figures, a monitor's readings), each under its prefix */
  routes?: readonly AreaRoutes[];
  /** first-start data: named steps, each run once in its own transaction, after the platform's steps */
  seed?: readonly SeedStep[];
  /**
   * the answers of its overview's sources (`AreaDef.overview.sources`), by source name: each mounted at the
   * source's URL, for callers holding the overview's code (or a code the source names), answered as `ok`
   */
  overview?: Readonly<Record<string, (call: OverviewCall) => Promise<unknown>>>;
  /** which rows each of its home figures counts (`AreaDef.home`), by key (all the caller may read when absent) */
  home?: Readonly<Record<string, (m: MountedResource) => SQL>>;
}

/** What an overview's source computes its answer from: the request (its language), the caller, the database. */
export interface OverviewCall {
  req: FastifyRequest;
  ctx: RequestContext;
  db: Db;
}

/** What an area's hooks may use: the database, the shared store, sessions and the configuration. */
export type AreaDeps = Pick<AppDeps, 'db' | 'kv' | 'sessions' | 'config'>;

/** A Fastify plugin of an area, mounted under `prefix` (`/api/dfem-hope-manage`). */
export interface AreaRoutes {
  prefix: string;
  plugin: FastifyPluginAsync;
}

/** What a seed step may use besides the database: where uploaded files live (the demo's photos go there). */
export interface SeedEnv {
  storage: FileStorage;
}

/** A seed step: its name (recorded in app_seed_log once it ran) and what it does. */
export type SeedStep = readonly [name: string, run: (db: Db, env: SeedEnv) => Promise<void>];

/**
 * Mounts an area's overview sources on the root app: each at its URL, asking for the overview's code (or one
 * the source names) before anything else. A declared source without its answer, or an answer of no declared
 * source, is a mistake said at start.
 */
export function mountOverview(app: FastifyInstance, part: ServerArea) {
  const decl = part.area.overview;
  const answers = part.overview ?? {};
  const sources = decl?.sources ?? {};
  for (const name of new Set([...Object.keys(sources), ...Object.keys(answers)]))
    if (!sources[name] || !answers[name])
      throw new Error(`area ${part.area.code}: overview source ${name} is not both declared and answered`);
  if (!decl) return;
  const { db } = app.deps;
  for (const [name, source] of Object.entries(sources))
    app.get(source.url, async (req) => {
      const ctx = requireCtx(req);
      await requireAnyPermission(db, req, [decl.code, ...(source.codes ?? [])]);
      return ok(req, await answers[name]({ req, ctx, db }));
    });
}

/** An area's server part; a hook for a resource of another area is a mistake said at start. */
export function serverArea(area: AreaDef, parts: Omit<ServerArea, 'area'> = {}): ServerArea {
  const keys = new Set(areaResources(area).map((r) => r.key));
  const hooks = parts.hooks;
  return {
    area,
    ...parts,
    hooks: hooks
      ? (deps) => {
          const out = hooks(deps);
          for (const key of Object.keys(out))
            if (!keys.has(key))
              throw new Error(`area ${area.code}: hooks for ${key}, no resource of the area`);
          return out;
        }
      : undefined,
  };
}
