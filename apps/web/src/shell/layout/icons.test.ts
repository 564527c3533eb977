import { AGRICULTURE_AREA } from '@smart/contracts/agriculture';
import { ASSISTANCE_AREA } from '@smart/contracts/assistance';
import { EVALUATION_AREA } from '@smart/contracts/evaluation';
import { PARTY_AREA } from '@smart/contracts/party';
import { POWER_AREA } from '@smart/contracts/power';
import { RESOURCES } from '@smart/contracts/registry';
import { RELIEF_AREA } from '@smart/contracts/relief';
import { SAFETY_AREA } from '@smart/contracts/safety';
import { VILLAGE_AREA } from '@smart/contracts/village';
import { describe, expect, it } from 'vitest';
import { ICONS } from './icons';

describe('menu icons', () => {
  it('every definition and area names an icon the shell bundles (an unknown one falls back silently)', () => {
    const named = [
      ...RESOURCES.map((r) => [r.key, r.icon] as const),
      ...[
        VILLAGE_AREA,
        EVALUATION_AREA,
        PARTY_AREA,
        RELIEF_AREA,
        ASSISTANCE_AREA,
        SAFETY_AREA,
        AGRICULTURE_AREA,
        POWER_AREA,
      ].map((a) => [a.code, a.icon] as const),
    ];
    const missing = named.filter(([, icon]) => icon && !ICONS[icon]);
    expect(missing).toEqual([]);
  });
});
