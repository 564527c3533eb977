import { FIRST_PAGE } from '@smart/contracts/core';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { TextKey } from '../i18n';
import { jsonStorage } from '../storage';
import { WEBSITE } from './website';

export interface RouteMeta {
  /** false: reachable without signing in */
  isAuth?: boolean;
  /** false: navigating there adds no tab */
  isTab?: boolean;
  /** false: hide the sidebar */
  menu?: boolean;
  keepAlive?: boolean;
  /** i18n key of the label */
  i18n?: TextKey;
}

/** One open page of the tabs bar (spec §2 navigation guard). */
export interface Tag {
  /** raw label: query name, route name or menu name */
  label: string;
  /** where the tab leads: query src or the full path */
  value: string;
  params: Record<string, string>;
  query: Record<string, string>;
  meta: RouteMeta;
  group: string[];
}

export const HOME_TAG: Tag = {
  label: 'home',
  value: FIRST_PAGE,
  params: {},
  query: {},
  meta: { i18n: 'route.home' },
  group: [],
};

/** A tab can be closed unless it is the only one, or the home tab while first page is off. */
export function isClosable(tag: Pick<Tag, 'value'>, tags: readonly Tag[]): boolean {
  if (tags.length <= 1) return false;
  return !(tag.value === HOME_TAG.value && !WEBSITE.isFirstPage);
}

interface TagsState {
  tags: Tag[];
  add: (tag: Tag) => void;
  remove: (value: string) => void;
  /** keeps `value` (and the home tab when it cannot be closed) */
  closeOthers: (value: string) => void;
  /** back to the home tab alone */
  closeAll: () => void;
  reset: () => void;
}

/** The tab list, persisted (tabs survive a reload); reset to the home tab on sign-in. */
export const useTags = create<TagsState>()(
  persist(
    (set) => ({
      tags: [HOME_TAG],
      add: (tag) =>
        set((state) => {
          const index = state.tags.findIndex((t) => t.value === tag.value);
          if (index === -1) return { tags: [...state.tags, tag] };
          const tags = state.tags.slice();
          tags[index] = tag;
          return { tags };
        }),
      remove: (value) =>
        set((state) => {
          const tag = state.tags.find((t) => t.value === value);
          if (!tag || !isClosable(tag, state.tags)) return state;
          return { tags: state.tags.filter((t) => t.value !== value) };
        }),
      closeOthers: (value) =>
        set((state) => ({
          tags: state.tags.filter(
            (t) => t.value === value || (t.value === HOME_TAG.value && !WEBSITE.isFirstPage),
          ),
        })),
      closeAll: () => set({ tags: [HOME_TAG] }),
      reset: () => set({ tags: [HOME_TAG] }),
    }),
    { name: 'saber-tags', storage: jsonStorage('local'), partialize: (s) => ({ tags: s.tags }) },
  ),
);
