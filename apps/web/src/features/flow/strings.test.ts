import { describe, expect, it } from 'vitest';
import { workEn, workZh } from '../work/strings';
import { wfEn, wfZh } from './strings';

/** Every key path of a nested string table, with its text. */
function leaves(table: object, prefix = ''): [string, string][] {
  return Object.entries(table).flatMap(([k, v]) =>
    typeof v === 'string'
      ? [[`${prefix}${k}`, v] as [string, string]]
      : leaves(v as object, `${prefix}${k}.`),
  );
}

/** `{name}` placeholders; `${…}` is a BPMN expression shown as it is */
const placeholders = (s: string) => [...s.matchAll(/(?<!\$)\{(\w+)(?:, [^}]+)?\}/g)].map((m) => m[1]).sort();

describe.each([
  ['wf', wfZh, wfEn],
  ['work', workZh, workEn],
])('%s strings', (_name, zh, en) => {
  it('have the same keys in Chinese and English, none empty', () => {
    const z = leaves(zh);
    const e = leaves(en);
    expect(e.map(([k]) => k).sort()).toEqual(z.map(([k]) => k).sort());
    for (const [k, v] of [...z, ...e]) expect(v.trim(), k).not.toBe('');
  });

  it('use the same placeholders in both languages', () => {
    const e = new Map(leaves(en));
    for (const [k, v] of leaves(zh)) expect(placeholders(e.get(k) ?? ''), k).toEqual(placeholders(v));
  });
});

describe('the spec’s words', () => {
  it('keep the leave form’s date order message and the deployment modes', () => {
    expect(workZh.leave.endBeforeStart).toBe('结束时间不能早于开始时间');
    expect([wfZh.scopeAll, wfZh.scopeChosen]).toEqual(['通用', '定制']);
    expect([workZh.approve, workZh.reject]).toEqual(['同意', '驳回']);
  });
});
