import { AGRI_MAP_DEFAULTS, AGRI_MAP_PARAMS, AGRICULTURE_DEMO, polygonMu } from '@smart/contracts';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { today as serverToday } from '../../platform/format';
import { notDeleted } from '../../platform/sql';
import { addMissingParams, insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import { villager } from '../village/tables';
import {
  cooperation,
  industry,
  industryBreeding,
  industryOutputValue,
  plan,
  planDetail,
  plantRecord,
  plot,
  seedling,
} from './tables';

/** The demo's ids beyond AGRICULTURE_DEMO's (the 11900000000017xxxxx range). */
const ID = {
  plot2: '1190000000001700002',
  plot3: '1190000000001700003',
  plot4: '1190000000001700004',
  plan2: '1190000000001710002',
  step: (n: number) => `11900000000017110${String(n).padStart(2, '0')}`,
  record: (n: number) => `11900000000017400${String(n).padStart(2, '0')}`,
  cooperation2: '1190000000001720002',
  industry2: '1190000000001730002',
  industry3: '1190000000001730003',
} as const;

/** A plot's corners (WGS-84 [lng, lat]) west of Changsha, around 28.2°N 112.9°E. */
const POLYGONS: [number, number][][] = [
  [
    [112.90012, 28.20031],
    [112.90101, 28.20036],
    [112.90108, 28.20109],
    [112.90015, 28.20112],
  ],
  [
    [112.90131, 28.20028],
    [112.90247, 28.20022],
    [112.90262, 28.20098],
    [112.90196, 28.20121],
    [112.90138, 28.20106],
  ],
  [
    [112.89968, 28.19921],
    [112.90086, 28.19925],
    [112.90079, 28.19998],
    [112.89972, 28.19994],
  ],
  [
    [112.90112, 28.19918],
    [112.90231, 28.19912],
    [112.90238, 28.19971],
    [112.90175, 28.20004],
    [112.90109, 28.19988],
  ],
];

/**
 * Smart agriculture: its dictionaries and the demo village's farming (tenant 000000): two cooperatives with
 * valid credit codes and certifications, four plots drawn near 28.2°N 112.9°E (area from their polygons),
 * this year's plans with steps — some done by the records that did them, one past its day and not done —,
 * the records, seedlings, three industries with their output values for the last three years, and breeding.
 * Deterministic, dated from today.
 */
export async function seedAgriculture(db: Db) {
  await seedMapParams(db);
  const tenantId = '000000';
  const base = { tenantId, createUser: SEED.adminUserId, createDept: SEED.rootDeptId };
  const today = serverToday();
  const year = Number(today.slice(0, 4));
  const day = (offset: number) =>
    new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
  /** a day of this year, never after today's (a done step) */
  const past = (mmdd: string) => {
    const d = `${year}-${mmdd}`;
    return d < today ? d : day(-1);
  };

  const [demo] = await db
    .select({ id: villager.id })
    .from(villager)
    .where(and(eq(villager.id, AGRICULTURE_DEMO.villagerId), eq(villager.tenantId, tenantId)))
    .limit(1);
  if (!demo) return;
  const others = (
    await db
      .select({ id: villager.id })
      .from(villager)
      .where(and(eq(villager.tenantId, tenantId), notDeleted(villager.isDeleted), ne(villager.id, demo.id)))
      .orderBy(asc(villager.id))
      .limit(6)
  ).map((v) => v.id);
  const farmer = (i: number) => others[i % Math.max(1, others.length)] ?? demo.id;

  await insertAll(db, cooperation, [
    {
      ...base,
      id: AGRICULTURE_DEMO.cooperationId,
      name: '稻香种植专业合作社',
      kind: '1',
      creditCode: '93430121MA4P8K2N6A',
      legalPerson: '李国强',
      phone: '13807310021',
      memberIds: [demo.id, ...others.slice(0, 3)].join(','),
      address: '村委会东侧200米',
      establishedDate: '2018-05-16',
      certifications: '1,2',
      certifiedYear: year - 2,
      remark: '优质稻统一育秧、统防统治、统一收购',
    },
    {
      ...base,
      id: ID.cooperation2,
      name: '丰收家庭农场',
      kind: '2',
      creditCode: '91430100MA4L3C1Y7P',
      legalPerson: '王建军',
      phone: '0731-84561288',
      memberIds: others.slice(3, 5).join(',') || demo.id,
      address: '三组',
      establishedDate: '2020-03-02',
      certifications: '3',
      certifiedYear: year - 1,
    },
  ]);

  const plots = [
    {
      id: AGRICULTURE_DEMO.plotId,
      name: '东湾一号田',
      crop: '1',
      soilType: '3',
      ownerKind: '1',
      owner: demo.id,
    },
    {
      id: ID.plot2,
      name: '合作社示范片',
      crop: '3',
      soilType: '1',
      ownerKind: '2',
      coop: AGRICULTURE_DEMO.cooperationId,
    },
    { id: ID.plot3, name: '南坡茶园', crop: '5', soilType: '2', ownerKind: '3' },
    { id: ID.plot4, name: '家庭农场菜地', crop: '4', soilType: '4', ownerKind: '2', coop: ID.cooperation2 },
  ];
  await insertAll(
    db,
    plot,
    plots.map((p, i) => ({
      ...base,
      id: p.id,
      name: p.name,
      polygon: JSON.stringify(POLYGONS[i]),
      area: (polygonMu(POLYGONS[i]) ?? 0).toFixed(2),
      crop: p.crop,
      soilType: p.soilType,
      ownerKind: p.ownerKind,
      ownerVillagerId: p.owner ?? null,
      cooperationId: p.coop ?? null,
    })),
  );

  await insertAll(db, plan, [
    {
      ...base,
      id: AGRICULTURE_DEMO.planId,
      name: `${year}年东湾一号田早稻计划`,
      plotId: AGRICULTURE_DEMO.plotId,
      year,
      season: '1',
      crop: '1',
    },
    {
      ...base,
      id: ID.plan2,
      name: `${year}年示范片油菜计划`,
      plotId: ID.plot2,
      year,
      season: '3',
      crop: '3',
    },
  ]);
  // the records that did the demo plan's first steps
  const records = [
    { op: '1', date: past('03-12'), inputs: '旋耕机翻耕20厘米' },
    { op: '2', date: past('04-06'), inputs: '早稻种子“中早39”3千克/亩' },
    { op: '3', date: past('05-18'), inputs: '复合肥(15-15-15)25千克/亩' },
    { op: '1', date: past('09-20'), inputs: '机耕' },
  ];
  await insertAll(
    db,
    plantRecord,
    records.map((r, i) => ({
      ...base,
      id: ID.record(i + 1),
      plotId: i < 3 ? AGRICULTURE_DEMO.plotId : ID.plot2,
      operation: r.op,
      workDate: r.date,
      operatorId: i < 3 ? demo.id : farmer(i),
      inputs: r.inputs,
    })),
  );
  await insertAll(db, planDetail, [
    // done by records 1–3
    {
      ...base,
      id: AGRICULTURE_DEMO.planDetailId,
      planId: AGRICULTURE_DEMO.planId,
      operation: '1',
      content: '翻耕晒垡',
      plannedDate: past('03-10'),
      doneDate: records[0].date,
      recordId: ID.record(1),
    },
    {
      ...base,
      id: ID.step(2),
      planId: AGRICULTURE_DEMO.planId,
      operation: '2',
      content: '抛秧',
      plannedDate: past('04-05'),
      doneDate: records[1].date,
      recordId: ID.record(2),
    },
    {
      ...base,
      id: ID.step(3),
      planId: AGRICULTURE_DEMO.planId,
      operation: '3',
      content: '分蘖肥',
      plannedDate: past('05-20'),
      doneDate: records[2].date,
      recordId: ID.record(3),
    },
    // past its day and not done: overdue
    {
      ...base,
      id: ID.step(4),
      planId: AGRICULTURE_DEMO.planId,
      operation: '4',
      content: '晒田后复水',
      plannedDate: day(-10),
    },
    {
      ...base,
      id: ID.step(5),
      planId: AGRICULTURE_DEMO.planId,
      operation: '6',
      content: '机收',
      plannedDate: day(20),
    },
    {
      ...base,
      id: ID.step(6),
      planId: ID.plan2,
      operation: '1',
      content: '翻耕整地',
      plannedDate: past('09-18'),
      doneDate: records[3].date,
      recordId: ID.record(4),
    },
    {
      ...base,
      id: ID.step(7),
      planId: ID.plan2,
      operation: '2',
      content: '油菜直播',
      plannedDate: day(5),
    },
  ]);

  await insertAll(db, seedling, [
    {
      ...base,
      variety: '中早39(早稻)',
      supplier: '湖南隆平种业有限公司',
      lotNo: `LP${year}0311`,
      quantityIn: 120,
      quantityLeft: 18,
      unit: '2',
      receivedDate: past('03-01'),
    },
    {
      ...base,
      variety: '湘杂油518',
      supplier: '县农资公司',
      lotNo: `XY${year}0902`,
      quantityIn: 60,
      quantityLeft: 60,
      unit: '2',
      receivedDate: past('09-02'),
    },
    {
      ...base,
      variety: '福鼎大白茶苗',
      supplier: '安化茶苗基地',
      lotNo: `AH${year}0215`,
      quantityIn: 5000,
      quantityLeft: 320,
      unit: '1',
      receivedDate: past('02-15'),
      remark: '南坡茶园补植',
    },
  ]);

  await insertAll(db, industry, [
    {
      ...base,
      id: AGRICULTURE_DEMO.industryId,
      name: '优质稻种植',
      category: '1',
      scale: '320.00',
      scaleUnit: '亩',
      cooperationId: AGRICULTURE_DEMO.cooperationId,
    },
    {
      ...base,
      id: ID.industry2,
      name: '生猪养殖',
      category: '2',
      scale: '1200.00',
      scaleUnit: '头',
      cooperationId: ID.cooperation2,
    },
    { ...base, id: ID.industry3, name: '稻田研学游', category: '4', scale: '2.00', scaleUnit: '条线路' },
  ]);
  const values: [string, number[]][] = [
    [AGRICULTURE_DEMO.industryId, [286.5, 302.8, 331.2]],
    [ID.industry2, [410.0, 388.6, 452.3]],
    [ID.industry3, [35.2, 48.9, 66.4]],
  ];
  await insertAll(
    db,
    industryOutputValue,
    values.flatMap(([industryId, byYear]) =>
      byYear.map((value, i) => ({ ...base, industryId, year: year - 3 + i, value: value.toFixed(2) })),
    ),
  );
  await insertAll(db, industryBreeding, [
    { ...base, species: '1', stock: 1180, unit: '1', farmId: ID.cooperation2, recordDate: day(-30) },
    { ...base, species: '4', stock: 3500, unit: '3', farmId: ID.cooperation2, recordDate: day(-30) },
    {
      ...base,
      species: '5',
      stock: 8000,
      unit: '4',
      farmId: AGRICULTURE_DEMO.cooperationId,
      recordDate: day(-12),
      remark: '稻田养鱼',
    },
  ]);
}

/** The map's tile source as system parameters (参数管理), for every tenant; `<key>.<tenantId>` for one. */
async function seedMapParams(db: Db) {
  const names: Record<keyof typeof AGRI_MAP_PARAMS, [string, string]> = {
    tiles: ['农业地图瓦片地址', '{s} {z} {x} {y} {key};留空则不加载底图'],
    key: ['农业地图瓦片密钥', '天地图等服务的密钥(tk)'],
    crs: ['农业地图瓦片坐标系', 'wgs84、gcj02 或 bd09;地块按 WGS-84 保存'],
    subdomains: ['农业地图瓦片子域', '地址中 {s} 的取值'],
  };
  const keys = Object.keys(AGRI_MAP_PARAMS) as (keyof typeof AGRI_MAP_PARAMS)[];
  await addMissingParams(
    db,
    keys.map((k) => ({
      paramName: names[k][0],
      paramKey: AGRI_MAP_PARAMS[k],
      paramValue: AGRI_MAP_DEFAULTS[k],
      remark: names[k][1],
    })),
  );
}
