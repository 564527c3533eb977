import { eq } from 'drizzle-orm';
import { type Db, schema } from '../platform/db';
import { seedFlow } from './flow';
import { syncMenus } from './menus';
import { seedRegions } from './regions';
import { seedSystem } from './system';
import { seedVillage } from './village';

/** Named steps run once each (recorded in app_seed_log), in one transaction per step. */
const STEPS: [name: string, run: (db: Db) => Promise<void>][] = [
  ['system-v1', seedSystem],
  ['regions-v1', seedRegions],
  ['flow-leave-v1', seedFlow],
  ['village-v1', seedVillage],
];

export async function seed(db: Db): Promise<string[]> {
  const applied: string[] = [];
  for (const [name, run] of STEPS) {
    const done = await db.select().from(schema.seedLog).where(eq(schema.seedLog.name, name)).limit(1);
    if (done.length) continue;
    await db.transaction(async (tx) => {
      await run(tx as unknown as Db);
      await tx.insert(schema.seedLog).values({ name });
    });
    applied.push(name);
  }
  await syncMenus(db);
  return applied;
}
