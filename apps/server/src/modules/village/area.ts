import { VILLAGE_AREA } from '@smart/contracts';
import { serverArea } from '../../platform/area';
import { villageHooks } from './hooks';
import { manageRoutes } from './routes';
import { seedVillage } from './seed';
import { fixTaskGrades } from './task-grades';

/** 村务管理 on the server: its resources' hooks, the village's figures and rankings, the demo village
 * (and the grades of tasks scored before a grade followed from its score). */
export const villageArea = serverArea(VILLAGE_AREA, {
  hooks: ({ db }) => villageHooks(db),
  routes: [{ prefix: '/api/dfem-hope-manage', plugin: manageRoutes }],
  seed: [
    ['village-v1', seedVillage],
    ['task-grades-v1', fixTaskGrades],
  ],
});
