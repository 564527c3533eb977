import {
  apiScopeResource,
  dataScopeResource,
  deptResource,
  menuResource,
  roleResource,
  tenantResource,
} from './admin';
import {
  clientResource,
  noticeResource,
  paramResource,
  postResource,
  tenantPackageResource,
  topMenuResource,
} from './system';
import type { ResourceDef } from './types';

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
];

export const resourceByKey = new Map(RESOURCES.map((r) => [r.key, r]));
