import { fieldKind } from './kinds';
import type { FieldDef } from './types';

/**
 * What an empty control says (its placeholder, and the accessible name of a select): 请选择性别 /
 * 请输入姓名 in Chinese; in English a sentence with an article — "Please select a sex", "Please enter the
 * name", "Please select the menus" — the label in lower case where it is a word (acronyms stay: "an ID
 * number"), while the label above the control keeps its capital. Every form, search form and child table
 * asks this one builder.
 */

/** Picked from a list or a picker rather than typed (请选择…, "Please select …"). */
export const isPickedField = (f: FieldDef): boolean => fieldKind(f).picked || !!f.dict || !!f.tree;

/** Several values picked at once (a multiple select, uploads): "the …" rather than "a …". */
const SEVERAL = new Set<FieldDef['type']>(['dictMulti', 'refs', 'ids', 'image', 'files', 'video']);

/**
 * English labels that are not noun phrases (a participle, "… by", a question word): the words the
 * placeholder uses instead, with their article. A label used by several fields is written once.
 */
export const PLACEHOLDER_PHRASES: Readonly<Record<string, string>> = {
  'Held by': 'the kind of holder',
  'Found by': 'how it was found',
  'Run by': 'who runs it',
  'Handled by': 'who handles it',
  'Acknowledged by': 'who acknowledged it',
  'Approved by': 'who approved it',
  'Closed by': 'who closed it',
  'Verified by': 'who verified it',
  'Reviewed by': 'who reviewed it',
  'Issued by': 'who issued it',
  'Received by': 'who received it',
  'Watched by': 'who watched',
  'On duty': 'who is on duty',
  Responsible: 'the person responsible',
  'Plan step done': 'the plan step it completes',
  Published: 'whether it is published',
  'Certified in': 'the year certified',
  Closed: 'the number closed',
  Received: 'the quantity received',
  Remaining: 'the quantity remaining',
  Who: 'who it is for',
  What: 'what is to be done',
  'Why removed': 'why it was removed',
  'Why the risk was removed': 'why the risk was removed',
  Spent: 'the amount spent',
  'New window': 'whether it opens in a new window',
  Education: 'an education level',
  Soil: 'a soil type',
};

/** Words that keep their capital inside a sentence. */
const PROPER = new Set(['English', 'Chinese']);

/** A label's words as they read inside a sentence: "Household no." → "household no."; "ID number" stays. */
export function inSentence(label: string): string {
  return label
    .split(' ')
    .map((w) => (/^[A-Z][^A-Z]*$/.test(w) && !PROPER.has(w) ? w.toLowerCase() : w))
    .join(' ');
}

/** "a" or "an" before a phrase, by its first sound (an API type, a unit, an hour-long …). */
export function article(phrase: string): 'a' | 'an' {
  const first = phrase.split(/[\s/-]/)[0];
  if (/^[A-Z]{2,}/.test(first)) return 'AEFHILMNORSX'.includes(first[0]) ? 'an' : 'a';
  if (/^(?:uni|use|usu|eu|one)/i.test(first)) return 'a';
  if (/^hour|^honest/i.test(first)) return 'an';
  return /^[aeiou]/i.test(first) ? 'an' : 'a';
}

/** The noun phrase, with its article, an English placeholder names the field by. */
function englishPhrase(f: FieldDef): string {
  const label = f.label.en;
  const own = PLACEHOLDER_PHRASES[label];
  if (own) return own;
  const words = inSentence(label);
  // yes or no: named by what it says of the record (a form may hold several)
  if (f.type === 'switch') return `whether ${words}`;
  if (f.type === 'date' || f.type === 'datetime' || f.type === 'dateRange') {
    // a label that names the day ("Birth date", "Deadline", "Period") is the noun; "Joined on" is not
    if (/(?:date|deadline|birthday|period|time)$/i.test(label)) return `the ${words}`;
    return f.type === 'date' ? 'the date' : f.type === 'datetime' ? 'the date and time' : 'the dates';
  }
  if (!isPickedField(f) || SEVERAL.has(f.type)) return `the ${words}`;
  return `${article(words)} ${words}`;
}

/**
 * The placeholder of a control that is no definition's field (a workflow screen's category): its label in
 * the language shown, picked one, picked several, or typed.
 */
export function placeholderFor(label: string, how: 'one' | 'several' | 'typed', lang: 'zh' | 'en'): string {
  if (lang === 'zh') return `${how === 'typed' ? '请输入' : '请选择'}${label}`;
  const own = PLACEHOLDER_PHRASES[label];
  const words = inSentence(label);
  const phrase = own ?? (how === 'one' ? `${article(words)} ${words}` : `the ${words}`);
  return `Please ${how === 'typed' ? 'enter' : 'select'} ${phrase}`;
}

/** The placeholder of a field's control in a language. */
export function placeholderOf(f: FieldDef, lang: 'zh' | 'en'): string {
  const picked = isPickedField(f);
  if (lang === 'zh') return `${picked ? '请选择' : '请输入'}${f.label.zh}`;
  return `Please ${picked ? 'select' : 'enter'} ${englishPhrase(f)}`;
}
