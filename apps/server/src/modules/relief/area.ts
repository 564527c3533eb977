import { RELIEF_AREA } from '@smart/contracts';
import { serverArea } from '../../platform/area';
import { reliefHooks } from './hooks';
import { reliefOverview } from './overview';
import { seedRelief } from './seed';

/** 防返贫 on the server: monitored households and their identification process, measures, the overview. */
export const reliefArea = serverArea(RELIEF_AREA, {
  hooks: ({ db, config }) => reliefHooks(db, config),
  overview: { relief: reliefOverview },
  seed: [['relief-v1', seedRelief]],
});
