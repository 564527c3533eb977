/** The server's menu tree turned into what the sidebar and the guard use (spec §3 menu node rules). */
import type { MenuNode } from '@smart/contracts/core';

export const DEFAULT_MENU_ICON = 'AppstoreOutlined';

export interface NavItem {
  id: string;
  code: string;
  name: string;
  alias: string;
  /** leaf: the page path (with /index) or the external URL; branch: the server's path */
  path: string;
  /** antd icon name */
  icon: string;
  external: boolean;
  /** the server's isOpen = 2: an external page opens in a new window instead of the app's iframe */
  newWindow: boolean;
  keepAlive: boolean;
  children: NavItem[];
}

/** A menu page the guard can resolve. */
export interface MenuEntry {
  path: string;
  name: string;
  keepAlive: boolean;
  external: boolean;
  newWindow: boolean;
  /** paths of the ancestors, top first */
  group: string[];
}

/** A URL, or a path containing 'html', opens outside the app. */
export function isExternal(path: string): boolean {
  return /^https?:\/\//i.test(path) || path.includes('html');
}

function pagePath(path: string): string {
  if (!path) return '';
  if (isExternal(path)) return path;
  let p = path.startsWith('/') ? path : `/${path}`;
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p.endsWith('/index') ? p : `${p === '/' ? '' : p}/index`;
}

export function normalizeMenu(nodes: MenuNode[] | null | undefined): NavItem[] {
  return [...(nodes ?? [])]
    .sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0))
    .map((node) => {
      const children = normalizeMenu(node.children);
      const rawPath = node.path ?? '';
      const leaf = children.length === 0;
      return {
        id: String(node.id),
        code: node.code ?? '',
        name: node.name ?? '',
        alias: node.alias ?? '',
        path: leaf ? pagePath(rawPath) : rawPath,
        icon: node.source?.trim() || DEFAULT_MENU_ICON,
        external: isExternal(rawPath),
        newWindow: node.isOpen === 2,
        keepAlive: Boolean(node.keepAlive),
        children,
      };
    });
}

/** All leaves of the tree, each with its ancestors' paths. */
export function flattenMenu(items: NavItem[], group: string[] = []): MenuEntry[] {
  const out: MenuEntry[] = [];
  for (const item of items) {
    if (item.children.length) {
      out.push(...flattenMenu(item.children, [...group, item.path || item.id]));
    } else if (item.path) {
      out.push({
        path: item.path,
        name: item.name,
        keepAlive: item.keepAlive,
        external: item.external,
        newWindow: item.newWindow,
        group,
      });
    }
  }
  return out;
}

/** The first page under a menu item (for a card or a top-level link). */
export function firstLeaf(item: NavItem): NavItem | null {
  if (!item.children.length) return item.path ? item : null;
  for (const child of item.children) {
    const leaf = firstLeaf(child);
    if (leaf) return leaf;
  }
  return null;
}

export function countLeaves(item: NavItem): number {
  if (!item.children.length) return item.path ? 1 : 0;
  return item.children.reduce((n, c) => n + countLeaves(c), 0);
}

export const IFRAME_PATH = '/myiframe/urlPath';

/**
 * Where a menu entry leads: an app page; an external page inside the app (/myiframe, spec §2); or, for
 * entries the server marks to open in a new window, the external URL itself.
 */
export function menuTarget(entry: Pick<NavItem, 'path' | 'name' | 'external' | 'newWindow'>): {
  href: string;
  newWindow: boolean;
} {
  if (!entry.external) return { href: entry.path, newWindow: false };
  if (entry.newWindow) return { href: entry.path, newWindow: true };
  const query = new URLSearchParams({ src: entry.path, name: entry.name });
  return { href: `${IFRAME_PATH}?${query}`, newWindow: false };
}

/** Menu entries whose name starts with the text, ignoring case (the menu searches of spec §2). */
export function searchMenu<T extends { name: string }>(entries: readonly T[], text: string, limit = 50): T[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [];
  return entries.filter((e) => e.name.toLowerCase().startsWith(needle)).slice(0, limit);
}
