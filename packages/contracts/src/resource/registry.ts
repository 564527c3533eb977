import { AREAS } from './areas';
import { SYSTEM_DICTS } from './dicts';
import { flowModelResource } from './flow';
import { PLATFORM_RESOURCES } from './platform';
import { dictBizResource, dictResource } from './system';
import { areaResources, type DictDecl, type ResourceDef } from './types';
import { userResource } from './user';

/**
 * Every resource of the product: the platform's, then each area's (`AREAS`) with their children. The
 * server mounts each on the resource engine, and the generated isolation, permission and validation tests
 * cover each.
 */
export const RESOURCES: ResourceDef[] = [
  ...PLATFORM_RESOURCES,
  userResource,
  dictResource,
  dictBizResource,
  flowModelResource,
  ...AREAS.flatMap(areaResources),
];

export const resourceByKey = new Map(RESOURCES.map((r) => [r.key, r]));

/**
 * Every platform dictionary declared in code: the system's, then each area's (a dictionary several areas
 * name — the telemetry core's — once). The dictionary seed keeps blade_dict in line with it.
 */
export const PLATFORM_DICTS: readonly DictDecl[] = [
  ...new Map([...SYSTEM_DICTS, ...AREAS.flatMap((a) => a.dicts ?? [])].map((d) => [d.code, d])).values(),
];
