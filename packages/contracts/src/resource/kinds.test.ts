import { describe, expect, it } from 'vitest';
import { maskForNotice, PHONE_MESSAGES } from './formats';
import { FIELD_KINDS } from './kinds';
import { RESOURCES } from './registry';
import type { FieldDef, FieldType } from './types';
import { checkField, requiredMessage } from './validate';

/** The registry is consistent with itself: what each kind offers as valid passes its rule, what it refuses fails. */
const field = (type: FieldType): FieldDef => ({ name: 'x', label: { zh: '字段', en: 'Field' }, type });

describe.each(Object.entries(FIELD_KINDS))('kind %s', (type, kind) => {
  const f = field(type as FieldType);

  it('its samples pass its own rule', () => {
    for (const n of [1, 7, 999, 12345]) {
      const sample = kind.sample(f, n);
      if (sample === '') continue; // ids and references: only stored rows are valid samples
      expect(checkField(f, sample), `${type} sample ${n}: ${sample}`).toBeNull();
    }
  });

  it('each value it refuses fails its rule with a message in both languages', () => {
    for (const [why, value] of kind.refuses) {
      const err = checkField(f, value);
      expect(err, `${type} ${why}`).not.toBeNull();
      expect(err?.zh && err.en, `${type} ${why}`).toBeTruthy();
    }
  });

  it('a missing required value says 请选择 when it is picked, 请输入 when typed', () => {
    const message = requiredMessage({ ...f, required: true });
    if (type === 'mobile' || type === 'phone') return expect(message).toEqual(PHONE_MESSAGES.empty); // the spec's own (§5)
    expect(message.zh.startsWith(kind.picked ? '请选择' : '请输入'), message.zh).toBe(true);
  });
});

describe('the definitions', () => {
  it('give examples their own rules accept', () => {
    for (const def of RESOURCES)
      for (const f of def.fields)
        if (f.example !== undefined)
          expect(checkField(f, f.example), `${def.key}.${f.name} = ${f.example}`).toBeNull();
  });
});

describe('maskForNotice', () => {
  it('keeps what a notice may show and stars the rest', () => {
    expect(maskForNotice('idcard', '43010219900307001X')).toBe('430102********001X');
    expect(maskForNotice('phone', '13812345678')).toBe('138****5678');
    expect(maskForNotice('phone', '0731-84561234')).toBe('0731-******34');
    expect(maskForNotice('text', '6222021234567890123')).toBe('***************0123');
    expect(maskForNotice('text', '123')).toBe('***');
  });
});
