import { describe, expect, it } from 'vitest';
import { checkExpression, resolve } from './expressions';

describe('flow expressions', () => {
  const vars = { flag: 'ok', days: 5, urgent: false, approver: '42' };
  it('reads variables and compares them', () => {
    expect(resolve('${approver}', vars)).toBe('42');
    expect(resolve("${flag == 'ok'}", vars)).toBe(true);
    expect(resolve("${flag != 'ok'}", vars)).toBe(false);
    expect(resolve('${days > 3 && !urgent}', vars)).toBe(true);
    expect(resolve('${(days <= 3) || urgent}', vars)).toBe(false);
    expect(resolve('${environment.output.flag}', vars)).toBe('ok');
    expect(resolve('plain text', vars)).toBe('plain text');
  });
  it('multiplies and divides, before comparing (a share of a countersign)', () => {
    const loop = { nrOfCompletedInstances: 2, nrOfInstances: 4 };
    expect(resolve('${nrOfCompletedInstances * 2 >= nrOfInstances}', loop)).toBe(true);
    expect(resolve('${nrOfCompletedInstances / nrOfInstances > 0.5}', loop)).toBe(false);
    expect(resolve('${days * 2}', vars)).toBe(10);
  });
  it('refuses anything that is not the small language', () => {
    for (const bad of [
      '${process.exit(1)}',
      '${a = 1}',
      '${a +}',
      '${constructor.constructor("x")()}',
      'no braces',
    ])
      expect(() => checkExpression(bad)).toThrow();
  });
});
