import { VILLAGE_AREA } from '@smart/contracts';
import { serverArea } from '../../platform/area';
import { villageHooks } from './hooks';
import { manageRoutes } from './routes';
import { seedVillage } from './seed';

/** 村务管理 on the server: its resources' hooks, the village's figures and rankings, the demo village. */
export const villageArea = serverArea(VILLAGE_AREA, {
  hooks: ({ db }) => villageHooks(db),
  routes: [{ prefix: '/api/dfem-hope-manage', plugin: manageRoutes }],
  seed: [['village-v1', seedVillage]],
});
