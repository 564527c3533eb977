import { RESOURCES } from '@smart/contracts/registry';
import { VILLAGE_AREA } from '@smart/contracts/village';
import { describe, expect, it } from 'vitest';
import { familyDefinition, inFamily } from '../platform/crud/resource-pages';
import { families, registry } from './registry';

describe('the page registry', () => {
  it('opens every definition’s screen: a line of its own, or its family loads the definition', async () => {
    for (const def of RESOURCES) {
      const path = `${def.route}/index`;
      if (registry[path]) continue;
      const family = families.find((f) => inFamily(f, path));
      expect(family, path).toBeDefined();
      expect((await familyDefinition(family!, path))?.key, path).toBe(def.key);
    }
  });

  it('loads an area’s own definitions with its screens, and knows no other path under it', async () => {
    const family = families.find((f) => inFamily(f, '/village/vehicle/index'))!;
    expect(await family.load()).toEqual(VILLAGE_AREA.resources);
    expect(await familyDefinition(family, '/village/nothing/index')).toBeNull();
    expect(inFamily(family, '/village/vehicle')).toBe(false);
    for (const key of Object.keys(family.own ?? {}))
      expect(VILLAGE_AREA.resources.map((r) => r.key)).toContain(key);
  });
});
