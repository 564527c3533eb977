import { PARTY_AREA } from '@smart/contracts';
import { serverArea } from '../../platform/area';
import { partyHooks } from './hooks';
import { partyOverview } from './overview';
import { seedParty } from './seed';

/** 党建 on the server: members, pairings, activities and the overview's figures. */
export const partyArea = serverArea(PARTY_AREA, {
  hooks: ({ db }) => partyHooks(db),
  overview: { party: partyOverview },
  seed: [['party-v1', seedParty]],
});
