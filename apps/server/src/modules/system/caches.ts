import { clearApiScopeCache } from '../../platform/access/api-scope';
import { clearPermissionCache } from '../../platform/access/permissions';
import { clearScopeCache } from '../../platform/access/scope';
import { clearMenuCache } from './menus';

/** Grants, scopes and menu answers are cached briefly; a change to them drops the caches of this instance. */
export function dropAccessCaches() {
  clearMenuCache();
  clearPermissionCache();
  clearScopeCache();
  clearApiScopeCache();
}
