import {
  partyActivityResource,
  partyOrganizationResource,
  partyPairingResource,
  villagerToPartyResource,
} from '@smart/contracts';
import { tableOf } from '../../platform/crud/model';

/**
 * Party building (dfem-hope-manage) tables, derived from their definitions in
 * packages/contracts/src/resource/party.ts (platform/crud/model.ts). `hope_villager_party` keeps the rows
 * village affairs wrote before the area existed (its path stays villagerToParty).
 */

export const partyOrganization = tableOf(partyOrganizationResource);
export const villagerToParty = tableOf(villagerToPartyResource);
export const partyPairing = tableOf(partyPairingResource);
export const partyActivity = tableOf(partyActivityResource);
