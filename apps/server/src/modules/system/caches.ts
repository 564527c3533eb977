import { clearApiScopeCache } from '../../platform/access/api-scope';
import { clearHeldRoles } from '../../platform/access/held-roles';
import { clearPermissionCache } from '../../platform/access/permissions';
import { clearPrivilegeCache } from '../../platform/access/privileges';
import { clearScopeCache } from '../../platform/access/scope';
import { forgetAnswers } from '../../platform/crud/answers';
import { clearMenuCache } from './menus';

/**
 * Grants, scopes and menu answers are cached briefly; a change to them drops the caches of this instance,
 * and the list answers made under the old grants.
 */
export function dropAccessCaches() {
  clearMenuCache();
  forgetAnswers();
  clearPermissionCache();
  clearHeldRoles();
  clearScopeCache();
  clearApiScopeCache();
  clearPrivilegeCache();
}
