/**
 * Party building's screens: organisations and members are pages of their own, the rest the generic list
 * page; the overview is a screen of the area.
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
    screens: {
      // figures, not a definition's list
      '/party/overview/index': () => import('./OverviewPage'),
    },
  },
);
