import { createHash } from 'node:crypto';
import { SERVER_AREAS } from '../modules/areas';
import { seedUploadQuotas } from '../modules/resource/uploads';
import type { SeedEnv, SeedStep } from '../platform/area';
import { type Db, schema } from '../platform/db';
import { dictsStep, fillDictEnglish, syncDicts } from './dicts';
import { seedFlow } from './flow';
import { flattenMenus, MENU_TREE, syncMenus } from './menus';
import { seedRegions } from './regions';
import { dropDefaultPasswordParams, seedClientRedirect, seedSystem } from './system';

/** The platform's named steps; each area's follow (modules/areas.ts), in the order of that list. */
const PLATFORM_STEPS: readonly SeedStep[] = [
  ['system-v1', seedSystem],
  ['regions-v1', seedRegions],
  ['flow-leave-v1', seedFlow],
  ['no-default-passwords-v1', dropDefaultPasswordParams],
  ['dict-english-v1', (db) => fillDictEnglish(db)],
  ['upload-quotas-v1', seedUploadQuotas],
  ['client-redirect-v1', seedClientRedirect],
];

/**
 * The menu tree of the code, as a step name: the menus are brought in line with the code whenever the code
 * has changed them since the last start (new screens appear, granted to the administrator), not otherwise.
 */
const menusStep = () =>
  `menus-${createHash('sha1')
    .update(JSON.stringify(flattenMenus(MENU_TREE)))
    .digest('hex')
    .slice(0, 16)}`;

/**
 * Brings a database to the code's first-start data: the platform's steps, the declared dictionaries (before
 * the areas' steps, whose demo rows name them), the areas' steps, the menus. Each named step runs once
 * (recorded in app_seed_log), in one transaction of its own; the dictionaries and menus run again whenever
 * their declarations changed. `env.storage` is where a step keeps files (the demo's photos, as uploads are
 * kept). Answers the steps it ran.
 */
export async function seed(db: Db, env: SeedEnv): Promise<string[]> {
  const done = new Set(
    (await db.select({ name: schema.seedLog.name }).from(schema.seedLog)).map((r) => r.name),
  );
  const applied: string[] = [];
  const once = async (name: string, run: (db: Db, env: SeedEnv) => Promise<unknown>) => {
    if (done.has(name)) return;
    await db.transaction(async (tx) => {
      await run(tx as unknown as Db, env);
      await tx.insert(schema.seedLog).values({ name }).onConflictDoNothing();
    });
    applied.push(name);
  };
  for (const [name, run] of PLATFORM_STEPS) await once(name, run);
  await once(dictsStep(), (db) => syncDicts(db));
  for (const [name, run] of SERVER_AREAS.flatMap((a) => a.seed ?? [])) await once(name, run);
  await once(menusStep(), (db) => syncMenus(db));
  return applied;
}
