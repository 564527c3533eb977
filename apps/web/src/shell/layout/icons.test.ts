import { MENU_TREE, type MenuSeed } from '@smart/contracts/menus';
import { RESOURCES } from '@smart/contracts/registry';
import { describe, expect, it } from 'vitest';
import { ICONS } from './icons';

/** every menu node of the seeded tree, with the icon it names */
const nodes = (tree: MenuSeed[]): MenuSeed[] => tree.flatMap((m) => [m, ...nodes(m.children ?? [])]);

describe('menu icons', () => {
  it('every seeded menu names an icon the shell bundles (an unknown one falls back to the default silently)', () => {
    const seeded = nodes(MENU_TREE);
    expect(seeded.length).toBeGreaterThan(50);
    const missing = seeded.filter((m) => m.source && !ICONS[m.source]).map((m) => `${m.code}: ${m.source}`);
    expect(missing).toEqual([]);
  });

  it('so does every definition, menu or not (a screen added to the tree later takes its icon)', () => {
    const missing = RESOURCES.filter((r) => r.icon && !ICONS[r.icon]).map((r) => `${r.key}: ${r.icon}`);
    expect(missing).toEqual([]);
  });

  it('tells the groups apart, and the screens of one group: no two share an icon', () => {
    const clashes = (list: MenuSeed[], where: string) => {
      const seen = new Map<string, string>();
      const out: string[] = [];
      for (const m of list) {
        const icon = m.source ?? '';
        if (seen.has(icon)) out.push(`${where}: ${seen.get(icon)} and ${m.code} share ${icon}`);
        else seen.set(icon, m.code);
      }
      return out;
    };
    const found = [
      ...clashes(MENU_TREE, 'top'),
      ...MENU_TREE.flatMap((group) => clashes(group.children ?? [], group.code)),
    ];
    expect(found).toEqual([]);
  });
});
