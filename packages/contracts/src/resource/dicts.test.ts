import { describe, expect, it } from 'vitest';
import { SYSTEM_DICTS } from './dicts';
import { PLATFORM_DICTS, RESOURCES } from './registry';
import { VILLAGE_DICTS } from './village';

describe('platform dictionaries declared in code', () => {
  it('have unique codes, unique keys and a value in both languages for every entry', () => {
    const codes = PLATFORM_DICTS.map((d) => d.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const d of PLATFORM_DICTS) {
      expect(d.label.zh && d.label.en, d.code).toBeTruthy();
      const keys = d.items.map((e) => e.key);
      expect(new Set(keys).size, d.code).toBe(keys.length);
      for (const e of d.items) {
        expect(e.zh.trim(), `${d.code}/${e.key}`).not.toBe('');
        expect(e.en.trim(), `${d.code}/${e.key}`).not.toBe('');
        // an Excel cell lists several values with commas: no value may hold one
        expect(`${e.zh}${e.en}`, `${d.code}/${e.key}`).not.toMatch(/[,，、]/);
        expect(Math.max(e.zh.length, e.en.length)).toBeLessThanOrEqual(255);
      }
      // a label names one entry in either language
      const labels = d.items.flatMap((e) => (e.zh === e.en ? [e.zh] : [e.zh, e.en]));
      expect(new Set(labels).size, d.code).toBe(labels.length);
    }
  });

  it('keep the codes the screens and the spec use', () => {
    expect(SYSTEM_DICTS.map((d) => d.code)).toEqual(
      expect.arrayContaining(['sex', 'notice', 'menu_category', 'button_func', 'yes_no', 'flow', 'region']),
    );
    expect(SYSTEM_DICTS.find((d) => d.code === 'sex')?.items).toEqual([
      { key: '1', zh: '男', en: 'Male' },
      { key: '2', zh: '女', en: 'Female' },
      { key: '3', zh: '未知', en: 'Unknown' },
    ]);
    expect(VILLAGE_DICTS.find((d) => d.code === 'ethnicity')?.items).toHaveLength(56);
  });

  it("hold every dictionary a field names (declared with its area, or the platform's)", () => {
    const declared = new Set(PLATFORM_DICTS.map((d) => d.code));
    const named = RESOURCES.flatMap((r) =>
      r.fields
        .filter((f) => f.type === 'dict' || f.type === 'dictMulti')
        .map((f) => [`${r.key}.${f.name}`, f.dict]),
    );
    expect(named.length).toBeGreaterThan(50);
    const undeclared = named.filter(([, code]) => !declared.has(String(code)));
    expect(undeclared).toEqual([]);
  });
});
