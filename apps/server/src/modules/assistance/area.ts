import { ASSISTANCE_AREA } from '@smart/contracts';
import { serverArea } from '../../platform/area';
import { assistanceHooks } from './hooks';
import { assistanceOverview } from './overview';
import { seedAssistance } from './seed';

/** 帮扶关爱 on the server: projects within budget, news, care videos, the overview's figures. */
export const assistanceArea = serverArea(ASSISTANCE_AREA, {
  hooks: () => assistanceHooks(),
  overview: { assistance: assistanceOverview },
  seed: [['assistance-v1', seedAssistance]],
});
