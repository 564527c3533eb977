/**
 * Party building screens: every route under /party/ is a definition of PARTY_AREA, loaded with the first of
 * its screens; the members' screen has the probation reminder above its list, the organisations' a
 * parent picked from their tree. The overview is a registry
 * page (features/registry.ts), not a definition.
 */
import type { PageFamily } from '../../platform/pages';

export const partyPages: PageFamily = {
  prefixes: ['/party/'],
  load: () => import('@smart/contracts/party').then((m) => m.PARTY_AREA.resources),
  own: {
    partyOrganization: () => import('./OrganizationPage'),
    villagerToParty: () => import('./MemberPage'),
  },
};
