/**
 * Assistance and care screens: every route under /assistance/ is a definition of ASSISTANCE_AREA, loaded
 * with the first of its screens; the projects' form checks spend against budget, the care videos' list has a 播放 / Play button per row opening the player.
 * The overview is a registry page (features/registry.ts), not a definition.
 */
import type { PageFamily } from '../../platform/pages';

export const assistancePages: PageFamily = {
  prefixes: ['/assistance/'],
  load: () => import('@smart/contracts/assistance').then((m) => m.ASSISTANCE_AREA.resources),
  own: {
    assistanceProject: () => import('./ProjectPage'),
    careVideo: () => import('./CareVideoPage'),
  },
};
