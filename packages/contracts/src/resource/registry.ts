import { AGRICULTURE_RESOURCES } from './agriculture';
import { ASSISTANCE_RESOURCES } from './assistance';
import { EVALUATION_RESOURCES } from './evaluation';
import { flowModelResource } from './flow';
import { PARTY_RESOURCES } from './party';
import { PLATFORM_RESOURCES } from './platform';
import { POWER_RESOURCES } from './power';
import { RELIEF_RESOURCES } from './relief';
import { SAFETY_RESOURCES } from './safety';
import { dictBizResource, dictResource } from './system';
import type { ResourceDef } from './types';
import { userResource } from './user';
import { VILLAGE_RESOURCES } from './village';

/**
 * Every resource of the product, each with a list screen: the server mounts each on the resource engine, and
 * the generated isolation, permission and validation tests cover each.
 */
export const RESOURCES: ResourceDef[] = [
  ...PLATFORM_RESOURCES,
  userResource,
  dictResource,
  dictBizResource,
  flowModelResource,
  ...VILLAGE_RESOURCES,
  ...EVALUATION_RESOURCES,
  ...PARTY_RESOURCES,
  ...RELIEF_RESOURCES,
  ...ASSISTANCE_RESOURCES,
  ...SAFETY_RESOURCES,
  ...AGRICULTURE_RESOURCES,
  ...POWER_RESOURCES,
];

export const resourceByKey = new Map(RESOURCES.map((r) => [r.key, r]));
