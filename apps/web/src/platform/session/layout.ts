import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { jsonStorage } from '../storage';

/**
 * Layout preferences. Theme, colour and the error log get their own small stores in a later issue
 * (saber-theme, saber-color, saber-error-log), one concern each.
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
