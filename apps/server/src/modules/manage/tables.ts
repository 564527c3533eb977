import { sql } from 'drizzle-orm';
import {
  date,
  type ExtraConfigColumn,
  index,
  integer,
  numeric,
  pgTable,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { baseColumns, id, idRef, tenantColumn } from '../../platform/db/columns';

/**
 * Village affairs (dfem-hope-manage) tables: one per resource of packages/contracts/src/resource/village.ts,
 * property names = field names. Dates are calendar dates (`date`, answered as YYYY-MM-DD strings);
 * dictionary keys are short strings; switches are 0/1.
 */

const live = () => sql`is_deleted = 0`;
const key = (name: string) => varchar(name, { length: 10 });
const money = (name: string) => numeric(name, { precision: 14, scale: 2 });
const day = (name: string) => date(name, { mode: 'string' });
const flag = (name: string, dflt = 0) => integer(name).notNull().default(dflt);
const remark = () => varchar('remark', { length: 500 });

export const villager = pgTable(
  'hope_villager',
  {
    id: id(),
    tenantId: tenantColumn(),
    name: varchar('name', { length: 20 }).notNull(),
    sex: integer('sex'),
    ethnicity: key('ethnicity'),
    idCard: varchar('id_card', { length: 18 }),
    phone: varchar('phone', { length: 11 }),
    birthDate: day('birth_date'),
    householdNo: varchar('household_no', { length: 20 }).notNull(),
    relation: key('relation'),
    villageGroup: key('village_group'),
    address: varchar('address', { length: 200 }),
    politicalStatus: key('political_status'),
    education: key('education'),
    maritalStatus: key('marital_status'),
    labourStatus: key('labour_status'),
    povertyAlleviated: flag('poverty_alleviated'),
    lowIncome: flag('low_income'),
    disabled: flag('disabled'),
    veteran: flag('veteran'),
    livingAlone: flag('living_alone'),
    photo: varchar('photo', { length: 500 }),
    remark: remark(),
    ...baseColumns(),
  },
  (t) => [
    // the list's default order and its common filters, within the tenant, over live rows
    index('hope_villager_page_idx')
      .on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(live()),
    uniqueIndex('hope_villager_id_card_uq')
      .on(t.tenantId, t.idCard)
      .where(sql`is_deleted = 0 and id_card is not null`),
    index('hope_villager_household_idx').on(t.tenantId, t.householdNo).where(live()),
    index('hope_villager_group_idx')
      .on(t.tenantId, t.villageGroup, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(live()),
    index('hope_villager_name_idx').on(t.tenantId, t.name).where(live()),
    // the list's name search matches anywhere in the name (ILIKE '%…%'): trigrams find it without a scan
    index('hope_villager_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')).where(live()),
  ],
);

type LinkColumns = Record<'tenantId' | 'villagerId' | 'createTime' | 'id', ExtraConfigColumn>;
/** Relation tables point at a villager: paged newest first, and read by villager. */
const villagerLink = (prefix: string) => (t: LinkColumns) => [
  index(`${prefix}_page_idx`)
    .on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst())
    .where(live()),
  index(`${prefix}_villager_idx`).on(t.villagerId),
];

export const villagerToParty = pgTable(
  'hope_villager_party',
  {
    id: id(),
    tenantId: tenantColumn(),
    villagerId: idRef('villager_id').notNull(),
    memberType: key('member_type'),
    branch: varchar('branch', { length: 60 }),
    joinDate: day('join_date'),
    partyPost: varchar('party_post', { length: 30 }),
    remark: remark(),
    ...baseColumns(),
  },
  (t) => villagerLink('hope_villager_party')(t as unknown as LinkColumns),
);

export const villagerToCadre = pgTable(
  'hope_villager_cadre',
  {
    id: id(),
    tenantId: tenantColumn(),
    villagerId: idRef('villager_id').notNull(),
    position: key('position'),
    termStart: day('term_start'),
    termEnd: day('term_end'),
    inOffice: flag('in_office', 1),
    duty: varchar('duty', { length: 100 }),
    phone: varchar('phone', { length: 11 }),
    remark: remark(),
    ...baseColumns(),
  },
  (t) => villagerLink('hope_villager_cadre')(t as unknown as LinkColumns),
);

export const villagerToOrg = pgTable(
  'hope_villager_org',
  {
    id: id(),
    tenantId: tenantColumn(),
    villagerId: idRef('villager_id').notNull(),
    orgKind: key('org_kind'),
    orgName: varchar('org_name', { length: 60 }),
    post: varchar('post', { length: 30 }),
    joinDate: day('join_date'),
    remark: remark(),
    ...baseColumns(),
  },
  (t) => villagerLink('hope_villager_org')(t as unknown as LinkColumns),
);

export const villagerToGroup = pgTable(
  'hope_villager_grid',
  {
    id: id(),
    tenantId: tenantColumn(),
    villagerId: idRef('villager_id').notNull(),
    gridName: varchar('grid_name', { length: 40 }),
    gridRole: key('grid_role'),
    gridArea: varchar('grid_area', { length: 100 }),
    remark: remark(),
    ...baseColumns(),
  },
  (t) => villagerLink('hope_villager_grid')(t as unknown as LinkColumns),
);

export const villageAffairsDuty = pgTable(
  'hope_village_duty',
  {
    id: id(),
    tenantId: tenantColumn(),
    dutyDate: day('duty_date'),
    shift: key('shift'),
    cadreId: idRef('cadre_id'),
    phone: varchar('phone', { length: 11 }),
    location: varchar('location', { length: 60 }),
    content: varchar('content', { length: 1000 }),
    remark: remark(),
    ...baseColumns(),
  },
  (t) => [index('hope_village_duty_date_idx').on(t.tenantId, t.dutyDate).where(live())],
);

export const evaluationTask = pgTable(
  'hope_evaluation_task',
  {
    id: id(),
    tenantId: tenantColumn(),
    title: varchar('title', { length: 100 }),
    assigneeId: idRef('assignee_id'),
    period: varchar('period', { length: 30 }),
    deadline: day('deadline'),
    progress: integer('progress').notNull().default(0),
    taskStatus: key('task_status'),
    score: numeric('score', { precision: 5, scale: 2 }),
    grade: key('grade'),
    content: varchar('content', { length: 1000 }),
    remark: remark(),
    ...baseColumns(),
  },
  (t) => [index('hope_evaluation_task_page_idx').on(t.tenantId, t.createTime).where(live())],
);

export const scoreRankRule = pgTable(
  'hope_score_rule',
  {
    id: id(),
    tenantId: tenantColumn(),
    category: key('category'),
    ruleName: varchar('rule_name', { length: 60 }),
    points: integer('points').notNull().default(0),
    enabled: flag('enabled', 1),
    sort: integer('sort').notNull().default(0),
    description: varchar('description', { length: 500 }),
    ...baseColumns(),
  },
  (t) => [index('hope_score_rule_tenant_idx').on(t.tenantId, t.sort).where(live())],
);

export const scoreRank = pgTable(
  'hope_score_record',
  {
    id: id(),
    tenantId: tenantColumn(),
    villagerId: idRef('villager_id').notNull(),
    ruleId: idRef('rule_id'),
    points: integer('points').notNull().default(0),
    recordDate: day('record_date'),
    approver: varchar('approver', { length: 20 }),
    evidence: varchar('evidence', { length: 2000 }),
    remark: remark(),
    ...baseColumns(),
  },
  (t) => [
    index('hope_score_record_date_idx').on(t.tenantId, t.recordDate).where(live()),
    index('hope_score_record_villager_idx').on(t.villagerId),
  ],
);

export const policyToPeople = pgTable(
  'hope_policy_people',
  {
    id: id(),
    tenantId: tenantColumn(),
    policyName: varchar('policy_name', { length: 100 }),
    villagerId: idRef('villager_id').notNull(),
    benefit: varchar('benefit', { length: 100 }),
    amount: money('amount'),
    grantDate: day('grant_date'),
    grantStatus: key('grant_status'),
    remark: remark(),
    ...baseColumns(),
  },
  (t) => villagerLink('hope_policy_people')(t as unknown as LinkColumns),
);

export const vehicle = pgTable(
  'hope_vehicle',
  {
    id: id(),
    tenantId: tenantColumn(),
    plateNo: varchar('plate_no', { length: 10 }),
    vehicleType: key('vehicle_type'),
    ownerId: idRef('owner_id'),
    brand: varchar('brand', { length: 40 }),
    color: varchar('color', { length: 10 }),
    usage: key('usage'),
    registerDate: day('register_date'),
    remark: remark(),
    ...baseColumns(),
  },
  (t) => [index('hope_vehicle_owner_idx').on(t.ownerId)],
);

export const filingRecords = pgTable(
  'hope_filing_record',
  {
    id: id(),
    tenantId: tenantColumn(),
    applicantId: idRef('applicant_id'),
    kind: key('kind'),
    eventDate: day('event_date'),
    place: varchar('place', { length: 100 }),
    tables: integer('tables'),
    guests: integer('guests'),
    filingStatus: key('filing_status'),
    content: varchar('content', { length: 1000 }),
    remark: remark(),
    ...baseColumns(),
  },
  (t) => [index('hope_filing_record_date_idx').on(t.tenantId, t.eventDate).where(live())],
);

export const villageRule = pgTable('hope_village_rule', {
  id: id(),
  tenantId: tenantColumn(),
  title: varchar('title', { length: 100 }),
  effectiveDate: day('effective_date'),
  published: flag('published', 1),
  content: text('content'),
  ...baseColumns(),
});

export const villageReview = pgTable('hope_village_review', {
  id: id(),
  tenantId: tenantColumn(),
  subject: varchar('subject', { length: 100 }),
  reviewKind: key('review_kind'),
  period: varchar('period', { length: 30 }),
  reviewDate: day('review_date'),
  participants: integer('participants'),
  result: key('result'),
  content: varchar('content', { length: 1000 }),
  ...baseColumns(),
});

export const guaranteeGroup = pgTable('hope_guarantee_group', {
  id: id(),
  tenantId: tenantColumn(),
  groupName: varchar('group_name', { length: 40 }),
  leaderId: idRef('leader_id'),
  memberIds: text('member_ids'),
  area: varchar('area', { length: 100 }),
  phone: varchar('phone', { length: 11 }),
  remark: remark(),
  ...baseColumns(),
});

export const duplexCharge = pgTable('hope_duplex_charge', {
  id: id(),
  tenantId: tenantColumn(),
  leaderId: idRef('leader_id'),
  memberIds: text('member_ids'),
  gridName: varchar('grid_name', { length: 40 }),
  phone: varchar('phone', { length: 11 }),
  remark: remark(),
  ...baseColumns(),
});

export const securityCharge = pgTable('hope_security_charge', {
  id: id(),
  tenantId: tenantColumn(),
  leaderId: idRef('leader_id'),
  memberIds: text('member_ids'),
  area: varchar('area', { length: 100 }),
  patrolDuty: varchar('patrol_duty', { length: 500 }),
  phone: varchar('phone', { length: 11 }),
  remark: remark(),
  ...baseColumns(),
});

export const villagerIncome = pgTable(
  'hope_villager_income',
  {
    id: id(),
    tenantId: tenantColumn(),
    villagerId: idRef('villager_id').notNull(),
    year: integer('year'),
    familySize: integer('family_size'),
    wageIncome: money('wage_income'),
    businessIncome: money('business_income'),
    propertyIncome: money('property_income'),
    transferIncome: money('transfer_income'),
    totalIncome: money('total_income'),
    perCapita: money('per_capita'),
    remark: remark(),
    ...baseColumns(),
  },
  (t) => [
    index('hope_villager_income_year_idx').on(t.tenantId, t.year).where(live()),
    index('hope_villager_income_villager_idx').on(t.villagerId),
  ],
);

export const visitingRecords = pgTable(
  'hope_visiting_record',
  {
    id: id(),
    tenantId: tenantColumn(),
    visitorId: idRef('visitor_id'),
    villagerId: idRef('villager_id'),
    visitDate: day('visit_date'),
    visitKind: key('visit_kind'),
    content: varchar('content', { length: 1000 }),
    followUp: varchar('follow_up', { length: 500 }),
    followStatus: key('follow_status'),
    photos: varchar('photos', { length: 2000 }),
    ...baseColumns(),
  },
  (t) => [
    index('hope_visiting_record_date_idx').on(t.tenantId, t.visitDate).where(live()),
    index('hope_visiting_record_villager_idx').on(t.villagerId),
  ],
);

export const visitingReception = pgTable(
  'hope_visiting_reception',
  {
    id: id(),
    tenantId: tenantColumn(),
    visitorName: varchar('visitor_name', { length: 20 }),
    visitorPhone: varchar('visitor_phone', { length: 11 }),
    visitorIdCard: varchar('visitor_id_card', { length: 18 }),
    receptionDate: day('reception_date'),
    matterKind: key('matter_kind'),
    matter: varchar('matter', { length: 1000 }),
    handlerId: idRef('handler_id'),
    result: varchar('result', { length: 1000 }),
    resultStatus: key('result_status'),
    ...baseColumns(),
  },
  (t) => [index('hope_visiting_reception_date_idx').on(t.tenantId, t.receptionDate).where(live())],
);

export const villageAffairsOverview = pgTable('hope_village_overview', {
  id: id(),
  tenantId: tenantColumn(),
  itemName: varchar('item_name', { length: 30 }),
  itemValue: varchar('item_value', { length: 30 }),
  unit: varchar('unit', { length: 10 }),
  sort: integer('sort').notNull().default(0),
  remark: remark(),
  ...baseColumns(),
});

/** Which table serves each village resource (modules/resources.ts binds them). */
export const VILLAGE_TABLES = {
  villager,
  villagerToParty,
  villagerToCadre,
  villagerToOrg,
  villagerToGroup,
  villageAffairsDuty,
  evaluationTask,
  scoreRankRule,
  scoreRank,
  policyToPeople,
  vehicle,
  filingRecords,
  villageRule,
  villageReview,
  guaranteeGroup,
  duplexCharge,
  securityCharge,
  villagerIncome,
  visitingRecords,
  visitingReception,
  villageAffairsOverview,
};
