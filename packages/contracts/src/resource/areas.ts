import { AGRICULTURE_AREA } from './agriculture';
import { ASSISTANCE_AREA } from './assistance';
import { DEVELOP_AREA } from './develop';
import { EVALUATION_AREA } from './evaluation';
import { MALL_AREA } from './mall';
import { PARTY_AREA } from './party';
import { POWER_AREA } from './power';
import { RELIEF_AREA } from './relief';
import { SAFETY_AREA } from './safety';
import { RESOURCE_AREA } from './storage';
import { TOURISM_AREA } from './tourism';
import type { AreaDef } from './types';
import { VILLAGE_AREA } from './village';
import { WECHAT_AREA } from './wechat';

/**
 * The business areas, in menu order: one line each. Everything else about an area follows from its
 * `defineArea` — its resources (and their children) join the registry, its folder, screens and buttons the
 * menu tree, its dictionaries the dictionary seed; the server's and the web's own lists
 * (`apps/server/src/modules/areas.ts`, `apps/web/src/features/areas.ts`) add its code.
 */
export const AREAS: readonly AreaDef[] = [
  VILLAGE_AREA,
  EVALUATION_AREA,
  PARTY_AREA,
  RELIEF_AREA,
  ASSISTANCE_AREA,
  SAFETY_AREA,
  AGRICULTURE_AREA,
  POWER_AREA,
  MALL_AREA,
  WECHAT_AREA,
  TOURISM_AREA,
  RESOURCE_AREA,
  DEVELOP_AREA,
];
