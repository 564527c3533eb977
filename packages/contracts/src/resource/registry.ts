import {
  apiScopeResource,
  dataScopeResource,
  deptResource,
  menuResource,
  roleResource,
  tenantResource,
} from './admin';
import { flowModelResource } from './flow';
import {
  clientResource,
  dictBizResource,
  dictResource,
  noticeResource,
  paramResource,
  postResource,
  reportResource,
  tenantPackageResource,
  topMenuResource,
} from './system';
import type { ResourceDef } from './types';
import { userResource } from './user';
import { VILLAGE_RESOURCES } from './village';

/** Every resource of the product; the server mounts each, and the generated tests cover each. */
export const RESOURCES: ResourceDef[] = [
  paramResource,
  postResource,
  tenantPackageResource,
  noticeResource,
  clientResource,
  topMenuResource,
  roleResource,
  deptResource,
  menuResource,
  dataScopeResource,
  apiScopeResource,
  tenantResource,
  reportResource,
  ...VILLAGE_RESOURCES,
];

/** Resources served by their module's own routes, which follow the same conventions (and the same tests). */
export const BESPOKE_RESOURCES: ResourceDef[] = [
  userResource,
  dictResource,
  dictBizResource,
  flowModelResource,
];

/** Every resource with a list screen: the generated isolation, permission and validation tests cover each. */
export const ALL_RESOURCES: ResourceDef[] = [...RESOURCES, ...BESPOKE_RESOURCES];

export const resourceByKey = new Map(ALL_RESOURCES.map((r) => [r.key, r]));
