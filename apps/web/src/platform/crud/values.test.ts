import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  columnTitle,
  formatForWire,
  isEmptyValue,
  isOn,
  numberText,
  splitList,
  switchFilterToWire,
  switchToWire,
} from './values';

describe('field kind values', () => {
  it('a switch filter sends 1 for 是, 0 for 否 and nothing for 全部', () => {
    expect(switchFilterToWire('1')).toBe(1);
    expect(switchFilterToWire('0')).toBe(0);
    expect(switchFilterToWire('')).toBe('');
    expect(switchFilterToWire(undefined)).toBe('');
    // 否 is a value, not an empty choice
    expect(switchFilterToWire(0)).toBe(0);
    expect(switchFilterToWire(false)).toBe(0);
  });

  it('a form switch is 1 or 0 on the wire and reads 1 / "1" as on', () => {
    expect([switchToWire(true), switchToWire(false)]).toEqual([1, 0]);
    expect([isOn(1), isOn('1'), isOn(true), isOn(0), isOn('0'), isOn(null)]).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('splits comma lists and knows what is empty', () => {
    expect(splitList('a, b,,c')).toEqual(['a', 'b', 'c']);
    expect(splitList(['1', 2])).toEqual(['1', '2']);
    expect(splitList(null)).toEqual([]);
    expect([
      isEmptyValue(''),
      isEmptyValue(null),
      isEmptyValue([]),
      isEmptyValue(0),
      isEmptyValue('-'),
    ]).toEqual([true, true, true, false, false]);
  });

  it('formats dates by their kind', () => {
    const d = dayjs('2026-03-04T05:06:07');
    expect(formatForWire({ type: 'date' }, d)).toBe('2026-03-04');
    expect(formatForWire({ type: 'datetime' }, d)).toBe('2026-03-04 05:06:07');
  });

  it("a list column says a number's unit once, in its header; its cells are the figures alone", () => {
    const budget = { name: 'budget', type: 'money', label: { zh: '预算资金', en: 'Budget' } } as const;
    expect([columnTitle(budget, 'zh'), columnTitle(budget, 'en')]).toEqual(['预算资金(元)', 'Budget (CNY)']);
    expect(numberText(budget, '80000', 'zh', false)).toBe('80,000.00');
    expect(numberText(budget, '80000', 'zh')).toBe('80,000.00 元');
    // a label that names its unit already, a share (drawn as a bar) and a plain number keep their labels
    const amount = { ...budget, label: { zh: '金额(元)', en: 'Amount (CNY)' } };
    expect([columnTitle(amount, 'zh'), columnTitle(amount, 'en')]).toEqual(['金额(元)', 'Amount (CNY)']);
    const progress = {
      type: 'int',
      percent: true,
      unit: { zh: '%', en: '%' },
      label: { zh: '进度', en: 'Progress' },
    } as const;
    expect(columnTitle(progress, 'zh')).toBe('进度');
    const area = {
      type: 'decimal',
      unit: { zh: '亩', en: 'mu' },
      label: { zh: '面积', en: 'Area' },
    } as const;
    expect([columnTitle(area, 'zh'), columnTitle(area, 'en')]).toEqual(['面积(亩)', 'Area (mu)']);
    expect(columnTitle({ type: 'int', label: { zh: '人数', en: 'People' } }, 'zh')).toBe('人数');
  });
});
