/**
 * The light half of the contracts (`@smart/contracts/core`): wire types, constants, the field and
 * resource types and the field rules both ends run — no resource definition. The web's shell and /login
 * import only this; an area's definitions come from their own sub-path (`@smart/contracts/<area>`) and load
 * with that area's pages.
 */
export * from './api';
export * from './constants';
export * from './resource/formats';
export * from './resource/kinds';
export * from './resource/today';
export * from './resource/types';
export * from './resource/validate';
