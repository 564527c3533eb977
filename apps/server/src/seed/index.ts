import { createHash } from 'node:crypto';
import { type Db, schema } from '../platform/db';
import { seedAgriculture } from './agriculture';
import { seedAssistance } from './assistance';
import { seedEvaluation } from './evaluation';
import { seedFlow } from './flow';
import { flattenMenus, MENU_TREE, syncMenus } from './menus';
import { seedParty } from './party';
import { seedPower } from './power';
import { seedRegions } from './regions';
import { seedRelief } from './relief';
import { seedSafety } from './safety';
import { addDictEnglish, dropDefaultPasswordParams, seedSystem } from './system';
import { seedStringAlarm, seedTelemetry } from './telemetry';
import { seedVillage } from './village';

/** Named steps run once each (recorded in app_seed_log), in one transaction per step. */
const STEPS: [name: string, run: (db: Db) => Promise<void>][] = [
  ['system-v1', seedSystem],
  ['regions-v1', seedRegions],
  ['flow-leave-v1', seedFlow],
  ['village-v1', seedVillage],
  ['no-default-passwords-v1', dropDefaultPasswordParams],
  ['dict-english-v1', addDictEnglish],
  ['evaluation-v1', seedEvaluation],
  ['party-v1', seedParty],
  ['relief-v1', seedRelief],
  ['assistance-v1', seedAssistance],
  ['safety-v1', seedSafety],
  ['agriculture-v1', seedAgriculture],
  ['telemetry-v1', seedTelemetry],
  ['power-v1', seedPower],
  ['telemetry-string-alarm-v1', seedStringAlarm],
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

export async function seed(db: Db): Promise<string[]> {
  const applied: string[] = [];
  const done = new Set(
    (await db.select({ name: schema.seedLog.name }).from(schema.seedLog)).map((r) => r.name),
  );
  for (const [name, run] of STEPS) {
    if (done.has(name)) continue;
    await db.transaction(async (tx) => {
      await run(tx as unknown as Db);
      await tx.insert(schema.seedLog).values({ name });
    });
    applied.push(name);
  }
  const menus = menusStep();
  if (!done.has(menus)) {
    await syncMenus(db);
    await db.insert(schema.seedLog).values({ name: menus }).onConflictDoNothing();
  }
  return applied;
}
