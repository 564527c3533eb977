import type { ServerArea } from '../platform/area';
import { agricultureArea } from './agriculture/area';
import { assistanceArea } from './assistance/area';
import { developArea } from './develop/area';
import { evaluationArea } from './evaluation/area';
import { mallArea } from './mall/area';
import { partyArea } from './party/area';
import { powerArea } from './power/area';
import { reliefArea } from './relief/area';
import { resourceArea } from './resource/area';
import { safetyArea } from './safety/area';
import { tourismArea } from './tourism/area';
import { villageArea } from './village/area';
import { wechatArea } from './wechat/area';

/**
 * The business areas on the server, one line each (their definitions: packages/contracts `AREAS`). Every
 * resource of an area is mounted on the engine (modules/resources.ts), its routes under their prefixes
 * (app.ts), its seed steps after the platform's, in this order (seed/index.ts).
 */
export const SERVER_AREAS: readonly ServerArea[] = [
  villageArea,
  evaluationArea,
  partyArea,
  reliefArea,
  assistanceArea,
  safetyArea,
  agricultureArea,
  powerArea,
  mallArea,
  wechatArea,
  tourismArea,
  resourceArea,
  developArea,
];
