import { flowModelResource } from './flow';
import { PLATFORM_RESOURCES } from './platform';
import { dictBizResource, dictResource } from './system';
import type { ResourceDef } from './types';
import { userResource } from './user';
import { VILLAGE_RESOURCES } from './village';

/** Every resource of the product; the server mounts each, and the generated tests cover each. */
export const RESOURCES: ResourceDef[] = [
  ...PLATFORM_RESOURCES,
  userResource,
  flowModelResource,
  ...VILLAGE_RESOURCES,
];

/** Resources served by their module's own routes, which follow the same conventions (and the same tests). */
export const BESPOKE_RESOURCES: ResourceDef[] = [dictResource, dictBizResource];

/** Every resource with a list screen: the generated isolation, permission and validation tests cover each. */
export const ALL_RESOURCES: ResourceDef[] = [...RESOURCES, ...BESPOKE_RESOURCES];

export const resourceByKey = new Map(ALL_RESOURCES.map((r) => [r.key, r]));
