import { type AreaDef, areaResources } from '@smart/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../app';
import type { ResourceHooks } from './crud/binding';
import type { Db } from './db';

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
}

/** What an area's hooks may use: the database, the shared store, sessions and the configuration. */
export type AreaDeps = Pick<AppDeps, 'db' | 'kv' | 'sessions' | 'config'>;

/** A Fastify plugin of an area, mounted under `prefix` (`/api/dfem-hope-manage`). */
export interface AreaRoutes {
  prefix: string;
  plugin: FastifyPluginAsync;
}

/** A seed step: its name (recorded in app_seed_log once it ran) and what it does. */
export type SeedStep = readonly [name: string, run: (db: Db) => Promise<void>];

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
