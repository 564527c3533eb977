import { describe, expect, it } from 'vitest';
import { article, inSentence, PLACEHOLDER_PHRASES, placeholderFor, placeholderOf } from './placeholder';
import { RESOURCES } from './registry';
import type { FieldDef } from './types';

const field = (over: Partial<FieldDef>): FieldDef => ({
  name: 'x',
  label: { zh: '', en: '' },
  type: 'text',
  ...over,
});

describe('the placeholder builder', () => {
  it('writes a sentence with an article, the label in lower case, in English; 请选择/请输入 in Chinese', () => {
    const sex = field({ label: { zh: '性别', en: 'Sex' }, type: 'dict', dict: 'sex' as never });
    expect(placeholderOf(sex, 'en')).toBe('Please select a sex');
    expect(placeholderOf(sex, 'zh')).toBe('请选择性别');
    const name = field({ label: { zh: '姓名', en: 'Name' } });
    expect(placeholderOf(name, 'en')).toBe('Please enter the name');
    expect(placeholderOf(name, 'zh')).toBe('请输入姓名');
    expect(placeholderOf(field({ label: { zh: '身份证号', en: 'ID number' }, type: 'idcard' }), 'en')).toBe(
      'Please enter the ID number',
    );
    expect(placeholderOf(field({ label: { zh: '民族', en: 'Ethnicity' }, type: 'dict' }), 'en')).toBe(
      'Please select an ethnicity',
    );
    expect(
      placeholderOf(field({ label: { zh: '菜单', en: 'Menus' }, type: 'ids', tree: 'menu' }), 'en'),
    ).toBe('Please select the menus');
    expect(placeholderOf(field({ label: { zh: '入党日期', en: 'Joined on' }, type: 'date' }), 'en')).toBe(
      'Please select the date',
    );
    expect(placeholderOf(field({ label: { zh: '出生日期', en: 'Birth date' }, type: 'date' }), 'en')).toBe(
      'Please select the birth date',
    );
    expect(
      placeholderOf(field({ label: { zh: '是否低保', en: 'Low-income (dibao)' }, type: 'switch' }), 'en'),
    ).toBe('Please select whether low-income (dibao)');
    expect(placeholderFor('Category', 'one', 'en')).toBe('Please select a category');
    expect(placeholderFor('Tenants', 'several', 'en')).toBe('Please select the tenants');
    expect(article('API type')).toBe('an');
    expect(article('unit')).toBe('a');
    expect(inSentence('GB/T 28181 code')).toBe('GB/T 28181 code');
  });

  // every field of every definition, as the forms, search forms and child tables show it
  const fields = RESOURCES.flatMap((r) => r.fields.map((f) => ({ r, f })));

  it('gives every field of every definition an English sentence: "Please enter|select" + article + words', () => {
    const odd: string[] = [];
    for (const { r, f } of fields) {
      const en = placeholderOf(f, 'en');
      const rest = en.replace(/^Please (select|enter) /, '');
      const where = `${r.key}.${f.name}: ${en}`;
      if (rest === en) odd.push(where);
      // an article or a question word, the way a sentence names a thing
      else if (!/^(?:a|an|the|who|how|whether|what|why)\b/.test(rest)) odd.push(where);
      // no Title Case word inside the sentence: capitals only where a word is an acronym (ID, GB/T, API)
      else if (rest.split(' ').some((w) => /^[A-Z][^A-Z]*$/.test(w) && w !== 'English')) odd.push(where);
      // a label that is not a noun phrase ("Joined on", "Approved by") never follows an article
      else if (/^(?:a|an|the) \S+ (?:on|at|by|in|from|for|since|until)$/.test(rest)) odd.push(where);
      // a/an agrees with the word after it
      else if (/^(?:a [aeio]|an [^aeioAEFHILMNORSX])/.test(rest)) odd.push(where);
    }
    expect(odd).toEqual([]);
  });

  it('keeps the Chinese placeholder 请选择 / 请输入 + the label, and uses every phrase it declares', () => {
    for (const { f } of fields)
      expect(placeholderOf(f, 'zh')).toMatch(
        new RegExp(`^请(选择|输入)${f.label.zh.replace(/[()（）+.*?[\]]/g, '.')}$`),
      );
    const labels = new Set(fields.map(({ f }) => f.label.en));
    for (const label of Object.keys(PLACEHOLDER_PHRASES)) expect(labels.has(label), label).toBe(true);
  });
});
