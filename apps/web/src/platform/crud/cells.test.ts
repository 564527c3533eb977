import type { FieldDef } from '@smart/contracts/core';
import { yearText, yuanText } from '@smart/contracts/overview';
import { deviceAlarmResource } from '@smart/contracts/telemetry';
import { evaluationTaskResource } from '@smart/contracts/village';
import { isValidElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { useLanguage } from '../i18n';
import { cellOf, orEmpty } from './columns';
import { EMPTY, formatMoney, numberText } from './values';

const field = (def: { fields: FieldDef[] }, name: string) => def.fields.find((f) => f.name === name)!;
const row = { id: '1' };
/** a cell's text: a long text is wrapped in a span that may break (`.crud-text`), a short one is as it is */
const textOf = (node: ReactNode): unknown =>
  isValidElement<{ children: ReactNode; className?: string }>(node) && node.props.className === 'crud-text'
    ? node.props.children
    : node;

describe('cells', () => {
  it('an empty value of any kind is "—", never null', () => {
    for (const f of [...deviceAlarmResource.fields, ...evaluationTaskResource.fields])
      for (const v of [null, undefined, '']) expect(cellOf(f)(v, row), `${f.name} ${String(v)}`).toBe(EMPTY);
    expect(EMPTY).toBe('—');
    // a screen's renderer that shows nothing shows the dash too
    expect(cellOf(field(deviceAlarmResource, 'state'), { render: { state: () => null } })('1', row)).toBe(
      EMPTY,
    );
    expect([orEmpty(''), orEmpty(false), orEmpty(0), orEmpty('x')]).toEqual([EMPTY, EMPTY, 0, 'x']);
  });

  it('an alarm’s metric reads as the metric’s name in the reader’s language, not its code', () => {
    const metric = field(deviceAlarmResource, 'metric');
    useLanguage.setState({ language: 'zh' });
    expect(cellOf(metric)('soilMoisture', row)).toBe('土壤含水量');
    useLanguage.setState({ language: 'en' });
    expect(textOf(cellOf(metric)('soilMoisture', row))).toBe('Soil moisture');
    // a code the catalogue does not know is shown as it is
    expect(cellOf(metric)('madeUp', row)).toBe('madeUp');
    useLanguage.setState({ language: 'zh' });
  });
});

describe('figures and amounts', () => {
  it('one money format: grouped, two decimals, wherever an amount is shown', () => {
    expect(formatMoney('60000')).toBe('60,000.00');
    expect(formatMoney(200000)).toBe('200,000.00');
    expect(numberText({ type: 'money' }, '60000.5', 'zh')).toBe('60,000.50 元');
    expect(yuanText(60000, 'zh')).toBe('60,000.00');
    expect(yuanText(1234567.891, 'en')).toBe('1,234,567.89');
  });

  it('a year is text, never grouped', () => {
    expect(yearText(2025)).toBe('2025');
    expect(yearText(undefined)).toBeUndefined();
  });

  it('the household income totals are amounts (money), as their parts are', async () => {
    const { villagerIncomeResource } = await import('@smart/contracts/village');
    for (const name of ['wageIncome', 'totalIncome', 'perCapita'])
      expect(field(villagerIncomeResource, name).type, name).toBe('money');
  });
});
