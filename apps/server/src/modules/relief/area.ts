import { RELIEF_AREA } from '@smart/contracts';
import { serverArea } from '../../platform/area';
import { reliefHooks } from './hooks';
import { reliefRoutes } from './routes';
import { seedRelief } from './seed';

/** 防返贫 on the server: monitored households and their identification process, measures, the overview. */
export const reliefArea = serverArea(RELIEF_AREA, {
  hooks: ({ db, config }) => reliefHooks(db, config),
  routes: [{ prefix: '/api/dfem-hope-manage', plugin: reliefRoutes }],
  seed: [['relief-v1', seedRelief]],
});
