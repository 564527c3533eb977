/**
 * Unit words as people write them beside a quantity (亩, 头, 条线路): a unit that a record holds as text
 * (an industry's scale unit, a village figure's unit, a sensor metric's unit) is shown in English mode
 * through these words; one not listed stays as written (it is the user's own word). Symbols (℃, %, kW)
 * are the same in both languages and are not listed.
 */
export const UNIT_WORDS: Record<string, string> = {
  亩: 'mu',
  公顷: 'ha',
  平方公里: 'km²',
  平方米: 'm²',
  公里: 'km',
  米: 'm',
  千米: 'km',
  厘米: 'cm',
  毫米: 'mm',
  吨: 't',
  千克: 'kg',
  公斤: 'kg',
  斤: 'jin',
  克: 'g',
  元: 'CNY',
  万元: '10k yuan',
  亿元: '100m yuan',
  人: 'people',
  户: 'households',
  个: 'units',
  头: 'head',
  只: 'animals',
  羽: 'birds',
  尾: 'fish',
  株: 'plants',
  棵: 'trees',
  条: 'items',
  条线路: 'routes',
  座: 'sites',
  台: 'units',
  套: 'sets',
  辆: 'vehicles',
  间: 'rooms',
  次: 'times',
  天: 'days',
  小时: 'h',
  分钟: 'min',
  秒: 's',
  年: 'years',
  度: 'kWh',
  千瓦: 'kW',
  千瓦时: 'kWh',
};

/** A unit word in `lang`: its English word in English where one is known, else as written. */
export function unitIn(lang: 'zh' | 'en', unit: string | null | undefined): string {
  const word = (unit ?? '').trim();
  if (lang !== 'en' || !word) return unit ?? '';
  return UNIT_WORDS[word] ?? unit ?? '';
}
