/** What the shell shows right now (not persisted): the open dialog, the screen size class, the page cache. */
import { create } from 'zustand';

export type ShellDialog = 'lock' | 'theme' | 'log' | 'switch' | 'search' | null;

/** Responsive breakpoints of spec §9: ≥1200 → 3, ≥992 → 2, ≥768 → 1, else 0 (small). */
export function screenOf(width: number): 0 | 1 | 2 | 3 {
  if (width >= 1200) return 3;
  if (width >= 992) return 2;
  if (width >= 768) return 1;
  return 0;
}

interface ShellUiState {
  dialog: ShellDialog;
  screen: 0 | 1 | 2 | 3;
  /** bumped by "clear cache": every kept-alive page starts again */
  cacheEpoch: number;
}

export const useShellUi = create<ShellUiState>()(() => ({
  dialog: null,
  screen: screenOf(typeof window === 'undefined' ? 1280 : window.innerWidth),
  cacheEpoch: 0,
}));

export function openDialog(dialog: ShellDialog): void {
  useShellUi.setState({ dialog });
}

export function closeDialog(): void {
  useShellUi.setState({ dialog: null });
}

export function dropPageCache(): void {
  useShellUi.setState((s) => ({ cacheEpoch: s.cacheEpoch + 1 }));
}

// the pages' scroller is the platform's to know (a list's sticky header follows it)
export { ContentScrollContext } from '../../platform/ui/contentScroll';
