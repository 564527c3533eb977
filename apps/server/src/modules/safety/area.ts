import { SAFETY_AREA } from '@smart/contracts';
import { serverArea } from '../../platform/area';
import { safetyHooks } from './hooks';
import { safetyOverview } from './overview';
import { moveToDemoStreams, seedSafety } from './seed';

/** 平安乡村 on the server: cameras and their wall, incidents, the monthly summary, the overview. */
export const safetyArea = serverArea(SAFETY_AREA, {
  hooks: ({ db }) => safetyHooks(db),
  overview: { safety: safetyOverview },
  seed: [
    ['safety-v1', seedSafety],
    // the demo cameras play the streams the server serves (installs seeded when they pointed nowhere)
    ['safety-demo-video-v1', moveToDemoStreams],
  ],
});
