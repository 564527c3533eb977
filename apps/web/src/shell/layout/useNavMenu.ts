import { useMemo } from 'react';
import { useSession } from '../../platform/session/session';
import type { Tag } from '../../platform/session/tags';
import { flattenMenu, normalizeMenu } from '../menu';

/** The signed-in user's menu, normalised (default icons, /index on leaves) and flattened. */
export function useNavMenu() {
  const menu = useSession((s) => s.menu);
  return useMemo(() => {
    const items = normalizeMenu(menu);
    return { items, entries: flattenMenu(items) };
  }, [menu]);
}

export function tagLabel(tag: Pick<Tag, 'label' | 'meta'>, t: (key: string) => string): string {
  return tag.meta?.i18n ? t(tag.meta.i18n) : tag.label;
}

/** The tab of the current location: exact value, else the tab whose value has the same path. */
export function activeTagValue(tags: Tag[], pathname: string, search: string): string | undefined {
  const full = pathname + search;
  const exact = tags.find((tag) => tag.value === full);
  if (exact) return exact.value;
  return tags.find((tag) => tag.value.split('?')[0] === pathname)?.value;
}
