import { useMemo } from 'react';
import type { TextKey } from '../../platform/i18n';
import { useSession } from '../../platform/session/session';
import type { Tag } from '../../platform/session/tags';
import { flattenMenu, IFRAME_PATH, isExternal, type MenuEntry, normalizeMenu } from '../menu';

/** The signed-in user's whole menu, normalised (default icons, /index on leaves) and flattened. */
export function useNavMenu() {
  const menu = useSession((s) => s.menu);
  return useMemo(() => {
    const items = normalizeMenu(menu);
    return { items, entries: flattenMenu(items) };
  }, [menu]);
}

/** The sidebar's menu: the chosen top menu's, else the whole menu. */
export function useSideMenu() {
  const menu = useSession((s) => s.sideMenu ?? s.menu);
  return useMemo(() => {
    const items = normalizeMenu(menu);
    return { items, entries: flattenMenu(items) };
  }, [menu]);
}

/**
 * A tab's label in the current language: its i18n key; for a page of the menu, the menu's name (the
 * server answers menus in the request's language); else the label it was opened with.
 */
export function tagLabel(
  tag: Pick<Tag, 'label' | 'meta' | 'value' | 'query'>,
  t: (key: TextKey) => string,
  entries?: readonly MenuEntry[],
): string {
  if (tag.meta?.i18n) return t(tag.meta.i18n);
  if (entries && !tag.query?.name) {
    const path = tag.value.split('?')[0];
    const entry = entries.find((e) => !e.external && e.path === path);
    if (entry) return entry.name;
  }
  return tag.label;
}

/** The tab value of a location (spec §2: query src, else the full path). */
export function tabValue(pathname: string, search: string): string {
  const src = new URLSearchParams(search).get('src');
  if (src) return src;
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return path + (search === '?' ? '' : search);
}

/** The tab of the current location: exact value, else the tab whose value has the same path. */
export function activeTagValue(tags: Tag[], pathname: string, search: string): string | undefined {
  const full = tabValue(pathname, search);
  const exact = tags.find((tag) => tag.value === full);
  if (exact) return exact.value;
  return tags.find((tag) => tag.value.split('?')[0] === pathname)?.value;
}

/** Where clicking a tab goes: its path with the query it was opened with; external pages go to /myiframe. */
export function tagPath(tag: Pick<Tag, 'value' | 'query'>): string {
  const base = isExternal(tag.value) ? IFRAME_PATH : tag.value.split('?')[0];
  const query = new URLSearchParams(tag.query ?? {}).toString();
  return query ? `${base}?${query}` : base;
}
