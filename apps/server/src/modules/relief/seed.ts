import { RELIEF_DEMO, RELIEF_PROCESS_KEY, RELIEF_STAGE, SYSTEM_DICTS } from '@smart/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { today as serverToday } from '../../platform/format';
import { notDeleted } from '../../platform/sql';
import { insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import { flowDefinition, flowDeployment } from '../flow/tables';
import { villager, villagerIncome } from '../village/tables';
import { RELIEF_PROCESS_DEFINITION_ID, RELIEF_PROCESS_XML } from './process';
import {
  benefitingPolicy,
  preventionPoverty,
  reliefIncomeLine,
  reliefResponsible,
  resettlementSite,
  supportingMeasures,
} from './tables';

/** The `flow` dictionary's entry for the identification process (its category). */
const RELIEF_FLOW_CATEGORY = SYSTEM_DICTS.find((d) => d.code === 'flow')!.items.find(
  (e) => e.remark === 'relief',
)!;

/**
 * Poverty relief: its dictionaries, the identification process (deployed for every tenant, like the leave
 * process), and the demo village's relief (tenant 000000): the households with the lowest per-capita income
 * of last year under monitoring with measures, one whose risk was removed, one application waiting for the
 * village's review (twenty days old: past the township's fifteen days, so the screen flags it), the
 * responsible persons, policies, a resettlement site and the income lines. Deterministic, dated from today.
 */
export async function seedRelief(db: Db) {
  await addFlowCategory(db);
  const [deployment] = await db
    .insert(flowDeployment)
    .values({
      name: '防返贫监测对象识别',
      category: RELIEF_FLOW_CATEGORY.key,
      tenantIds: '',
      createUser: SEED.adminUserId,
    })
    .returning({ id: flowDeployment.id });
  await db.insert(flowDefinition).values({
    deploymentId: deployment.id,
    processDefinitionId: RELIEF_PROCESS_DEFINITION_ID,
    processKey: RELIEF_PROCESS_KEY,
    name: '防返贫监测对象识别',
    version: 1,
    category: RELIEF_FLOW_CATEGORY.key,
    tenantIds: '',
    resourceName: `${RELIEF_PROCESS_KEY}.bpmn20.xml`,
    xml: RELIEF_PROCESS_XML,
    createUser: SEED.adminUserId,
  });

  const tenantId = '000000';
  const base = { tenantId, createUser: SEED.adminUserId, createDept: SEED.rootDeptId };
  // the server's day (its time zone), as the clocks count it
  const today = serverToday();
  const day = (offset: number) =>
    new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
  const year = Number(today.slice(0, 4));

  await insertAll(db, reliefIncomeLine, [
    { ...base, year: year - 2, line: '6800.00', remark: '按当地防止返贫监测范围标准' },
    { ...base, year: year - 1, line: '7200.00', remark: '按当地防止返贫监测范围标准' },
  ]);
  await insertAll(db, benefitingPolicy, [
    {
      ...base,
      name: '脱贫人口小额信贷',
      category: '7',
      targetGroup: '脱贫户、监测户',
      standard: '5万元以下、3年以内,免担保免抵押,财政贴息',
      issuer: '县乡村振兴局',
      effectiveDate: `${year - 1}-01-01`,
      content: '支持脱贫人口和监测对象发展产业,按基准利率放贷,财政全额贴息。',
    },
    {
      ...base,
      name: '雨露计划职业教育补助',
      category: '3',
      targetGroup: '脱贫家庭、监测户子女',
      standard: '每生每学期1500元',
      issuer: '县乡村振兴局',
      effectiveDate: `${year - 1}-03-01`,
      content: '就读中高职院校的学生,每学期申请一次。',
    },
    {
      ...base,
      name: '城乡居民医保参保资助',
      category: '4',
      targetGroup: '监测户、特困人员',
      standard: '按个人缴费额定额资助',
      issuer: '县医疗保障局',
      effectiveDate: `${year}-01-01`,
      content: '监测对象参加城乡居民基本医疗保险,个人缴费部分给予资助。',
    },
  ]);
  await insertAll(db, resettlementSite, [
    {
      ...base,
      name: '幸福家园安置小区',
      address: '镇政府南侧300米',
      location: '112.9823,28.1941',
      households: 48,
      persons: 173,
      builtDate: '2019-10-01',
      facilities: '幼儿园、卫生室、扶贫车间、社区服务中心',
    },
  ]);

  // last year's lowest per-capita incomes (the demo's first villager is the sample household's head)
  const poorest = await db
    .select({ id: villager.id, householdNo: villager.householdNo, familySize: villagerIncome.familySize })
    .from(villagerIncome)
    .innerJoin(villager, eq(villager.id, villagerIncome.villagerId))
    .where(
      and(
        eq(villagerIncome.tenantId, tenantId),
        eq(villagerIncome.year, year - 1),
        notDeleted(villagerIncome.isDeleted),
      ),
    )
    .orderBy(asc(villagerIncome.perCapita), asc(villager.id))
    .limit(7);
  const [sample] = await db
    .select({ id: villager.id, householdNo: villager.householdNo })
    .from(villager)
    .where(and(eq(villager.id, RELIEF_DEMO.villagerId), eq(villager.tenantId, tenantId)))
    .limit(1);
  if (!sample) return;
  const heads = [
    { id: sample.id, householdNo: sample.householdNo, familySize: 4 },
    ...poorest.filter((p) => p.householdNo !== sample.householdNo),
  ];
  const risks = ['1', '2,7', '3', '4', '1,8', '6', '5', '2'];
  const households = heads.map((p, i) => {
    const removed = i === heads.length - 2;
    const waiting = i === heads.length - 1;
    const applied = waiting ? day(-20) : day(-200 - i * 30);
    return {
      ...base,
      ...(i === 0 ? { id: RELIEF_DEMO.householdId } : {}),
      householderId: p.id,
      householdNo: p.householdNo,
      monitorKind: String((i % 3) + 1),
      riskKinds: risks[i % risks.length],
      source: waiting ? '1' : String((i % 2) + 1),
      familySize: p.familySize ?? 3,
      applyDate: applied,
      stage: waiting
        ? RELIEF_STAGE.villageReview
        : removed
          ? RELIEF_STAGE.riskRemoved
          : RELIEF_STAGE.monitored,
      noticeStart: waiting ? null : day(-195 - i * 30),
      noticeEnd: waiting ? null : day(-190 - i * 30),
      identifyDate: waiting ? null : day(-188 - i * 30),
      riskRemovedDate: removed ? day(-15) : null,
      riskRemovedReason: removed ? '务工收入稳定,人均纯收入超过监测线' : null,
      situation: waiting ? '户主突发重病住院,家庭主要劳动力丧失' : null,
    };
  });
  await insertAll(db, preventionPoverty, households);
  const rows = await db
    .select({ id: preventionPoverty.id, stage: preventionPoverty.stage, no: preventionPoverty.householdNo })
    .from(preventionPoverty)
    .where(
      and(
        eq(preventionPoverty.tenantId, tenantId),
        inArray(
          preventionPoverty.householdNo,
          households.map((x) => x.householdNo),
        ),
      ),
    )
    .orderBy(asc(preventionPoverty.id));
  const monitored = rows.filter((r) => r.stage === RELIEF_STAGE.monitored);

  await insertAll(db, reliefResponsible, [
    {
      ...base,
      id: RELIEF_DEMO.responsibleId,
      name: '刘建国',
      unit: '县农业农村局',
      post: '驻村第一书记',
      phone: '13907310001',
      households: monitored
        .slice(0, 3)
        .map((r) => r.id)
        .join(','),
    },
    {
      ...base,
      name: '周丽',
      unit: '镇人民政府',
      post: '包村干部',
      phone: '0731-84561234',
      households: monitored
        .slice(3)
        .map((r) => r.id)
        .join(','),
    },
  ]);
  // every monitored household but the last has a measure under way; the last one still needs one
  const kinds = [
    ['1', '发展养殖产业', '3000.00'],
    ['2', '公益性岗位就业', '6000.00'],
    ['3', '大病医疗救助', '8000.00'],
    ['4', '教育资助', '3000.00'],
    ['8', '纳入低保', '4200.00'],
  ] as const;
  await insertAll(
    db,
    supportingMeasures,
    monitored.slice(0, -1).map((r, i) => {
      const [measureKind, name, amount] = kinds[i % kinds.length];
      return {
        ...base,
        householdId: r.id,
        measureKind,
        name,
        amount,
        startDate: day(-180 + i * 10),
        status: '1',
        responsibleId: RELIEF_DEMO.responsibleId,
        content: `${name},按月跟踪落实情况。`,
      };
    }),
  );
}

/** A database seeded before the category existed gains it (a new one has it from system-v1). */
async function addFlowCategory(db: Db) {
  const [parent] = await db
    .select({ id: schema.dict.id })
    .from(schema.dict)
    .where(and(eq(schema.dict.code, 'flow'), eq(schema.dict.parentId, '0')))
    .limit(1);
  if (!parent) return;
  const [present] = await db
    .select({ id: schema.dict.id })
    .from(schema.dict)
    .where(and(eq(schema.dict.parentId, parent.id), eq(schema.dict.dictKey, RELIEF_FLOW_CATEGORY.key)))
    .limit(1);
  if (present) return;
  await db.insert(schema.dict).values({
    parentId: parent.id,
    code: 'flow',
    dictKey: RELIEF_FLOW_CATEGORY.key,
    dictValue: RELIEF_FLOW_CATEGORY.zh,
    dictValueEn: RELIEF_FLOW_CATEGORY.en,
    remark: RELIEF_FLOW_CATEGORY.remark,
    sort: 3,
  });
}
