/**
 * Party building's screens: organisations and members are pages of their own, the rest the generic list
 * page; the overview is the area's declaration, drawn by the one overview page.
 */
import { areaPages } from '../../platform/pages';

export const partyPages = areaPages(
  'party',
  () => import('@smart/contracts/party').then((m) => m.PARTY_AREA),
  {
    own: {
      partyOrganization: () => import('./OrganizationPage'),
      villagerToParty: () => import('./MemberPage'),
    },
  },
);
