/**
 * Pages of the shell itself (spec §2 routes), looked up by the page host before the feature registry.
 * One lazy chunk each.
 */
import type { PageLoader } from '../../features/registry';
import { IFRAME_PATTERN } from '../guard';

export const shellPages: Record<string, PageLoader> = {
  '/wel/dashboard': () => import('./DashboardPage'),
  '/test/index': () => import('./TestPage'),
  [IFRAME_PATTERN]: () => import('./IframePage'),
};
