import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { jsonStorage } from '../storage';

/**
 * Layout preferences: the sidebar folded or not. Theme and colour (appearance.ts), the error log
 * (errorLog.ts), tabs, lock and language have their own small stores, one concern each.
 */
interface LayoutState {
  collapsed: boolean;
  toggle: () => void;
  setCollapsed: (collapsed: boolean) => void;
}

export const useLayout = create<LayoutState>()(
  persist(
    (set) => ({
      collapsed: false,
      toggle: () => set((s) => ({ collapsed: !s.collapsed })),
      setCollapsed: (collapsed) => set({ collapsed }),
    }),
    { name: 'saber-layout', storage: jsonStorage('local'), partialize: (s) => ({ collapsed: s.collapsed }) },
  ),
);
