import {
  apiScopeResource,
  dataScopeResource,
  deptResource,
  menuResource,
  roleResource,
  tenantResource,
} from './admin';
import { LOG_RESOURCES } from './log';
import {
  clientResource,
  noticeResource,
  paramResource,
  postResource,
  regionResource,
  tenantPackageResource,
  topMenuResource,
} from './system';
import type { ResourceDef } from './types';

/**
 * The platform's own screens served by the generic engine (system administration, authority, desk,
 * logs):
 * every resource of `RESOURCES` that belongs to no area. The web loads them with the first of their screens.
 */
export const PLATFORM_RESOURCES: ResourceDef[] = [
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
  regionResource,
  ...LOG_RESOURCES,
];
