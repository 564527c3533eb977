import { clearApiScopeCache } from '../../platform/access/api-scope';
import { clearHeldRoles } from '../../platform/access/held-roles';
import { clearPermissionCache } from '../../platform/access/permissions';
import { clearPrivilegeCache } from '../../platform/access/privileges';
import { clearScopeCache } from '../../platform/access/scope';
import { forgetAnswers } from '../../platform/crud/answers';
import { forgetAllCounts } from '../../platform/crud/count-cache';
import { clearMenuCache } from './menus';

/**
 * Grants, scopes and menu answers are cached briefly; a change to them drops the caches of this instance,
 * and the list answers and page totals made under the old grants (a total counts within the data scope).
 */
export function dropAccessCaches() {
  clearMenuCache();
  forgetAnswers();
  forgetAllCounts();
  clearPermissionCache();
  clearHeldRoles();
  clearScopeCache();
  clearApiScopeCache();
  clearPrivilegeCache();
}
