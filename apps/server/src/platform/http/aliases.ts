/**
 * Routes mounted under a second path for the family's newer clients, and the path each stands for. Whatever
 * is decided by a route's path (API scopes) is decided for an alias as for the route it stands for.
 */
const FAMILY_USER = '/api/dfem-system/user/';
const USER = '/api/dfem-user/';

/** The route an alias pattern stands for (`/api/dfem-system/user/list` → `/api/dfem-user/page`), else undefined. */
export function canonicalRoute(pattern: string): string | undefined {
  if (!pattern.startsWith(FAMILY_USER)) return undefined;
  const rest = pattern.slice(FAMILY_USER.length);
  return `${USER}${rest === 'list' ? 'page' : rest}`;
}
