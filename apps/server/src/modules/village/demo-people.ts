/**
 * What the demo village is generated from: a deterministic random generator (the same village on every
 * machine), the names villagers are drawn from, and the day arithmetic of its records.
 */

/** A small deterministic generator (mulberry32): the same village everywhere. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
  };
}

export const SURNAMES = '刘刘刘陈陈陈李李王王张杨黄周吴彭谭罗胡曾邓唐'.split('');
export const SPOUSE_SURNAMES =
  '王李张赵周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁魏薛叶阎余潘杜戴夏钟汪田任姜范方石姚谭廖邹熊金陆郝孔白崔康毛邱秦江史顾侯邵孟龙万段雷钱汤尹黎易常武乔贺赖龚文'.split(
    '',
  );
export const MALE = '伟强军勇杰涛斌明辉建国华平刚志文海波林浩宇俊磊鹏超春晓东峰德福贵生长永'.split('');
export const FEMALE = '芳娟敏静丽艳娜秀英霞玲燕红梅兰凤琴桂花春云萍莉婷雪丹慧洁淑珍'.split('');
export const REGION = '430181'; // 湖南省浏阳市

export interface Person {
  id: string;
  name: string;
  sex: 1 | 2;
  birth: Date;
  relation: string;
  householdNo: string;
  group: string;
}

export const pad = (n: number, w = 2) => String(n).padStart(w, '0');
export const ymd = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
export const addDays = (d: Date, days: number) => new Date(d.getTime() + days * 86_400_000);
