/**
 * The business areas' pages, one line each (their definitions: packages/contracts `AREAS`). An area's
 * `pages.ts` names its route prefix, its contracts module and its screens of its own (`areaPages`); every
 * other definition of the area gets the generic list page.
 */
import type { PageFamily } from '../platform/pages';
import { agriculturePages } from './agriculture/pages';
import { assistancePages } from './assistance/pages';
import { developPages } from './develop/pages';
import { evaluationPages } from './evaluation/pages';
import { mallPages } from './mall/pages';
import { partyPages } from './party/pages';
import { powerPages } from './power/pages';
import { reliefPages } from './relief/pages';
import { resourcePages } from './resource/pages';
import { safetyPages } from './safety/pages';
import { tourismPages } from './tourism/pages';
import { villagePages } from './village/pages';
import { wechatPages } from './wechat/pages';

export const AREA_PAGES: readonly PageFamily[] = [
  villagePages,
  evaluationPages,
  partyPages,
  reliefPages,
  assistancePages,
  safetyPages,
  agriculturePages,
  powerPages,
  mallPages,
  wechatPages,
  tourismPages,
  resourcePages,
  developPages,
];
