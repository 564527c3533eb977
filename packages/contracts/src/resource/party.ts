import { dictCodes, dictionary, numbered } from './dicts';
import { area, date, ref, remark, text } from './fields';
import { percentOf } from './overview';
import { areaResource, defineArea, L, type OverviewAnswers, type OverviewDecl } from './types';
import { VILLAGE_DICT } from './village';

/** The party-building area's dictionaries (seed step party-v1). */
export const PARTY_DICTS = [
  dictionary(
    'party_org_kind',
    L('党组织类型', 'Party organisation kind'),
    numbered([
      ['党委', 'Party committee'],
      ['党总支', 'General party branch'],
      ['党支部', 'Party branch'],
    ]),
  ),
];

/** What a field names its dictionary by: `PARTY_DICT.<code>` (a code not declared above does not compile). */
export const PARTY_DICT = dictCodes(PARTY_DICTS);

/**
 * Party building (党建, spec §1): party organisations as a tree, members (villagerToParty, the spec's path)
 * linked to a villager and a branch with the probation they serve, members' pairings with households
 * (党员联系户), activities with their attendance, and an overview computed from the rows.
 */

const SERVICE = 'dfem-hope-manage';

/** Rows the demo seed always creates (tenant 000000): generated tests reference them as valid samples. */
export const PARTY_DEMO = {
  orgId: '1190000000000800001',
  villagerId: '1190000000000000001',
} as const;

const resource = areaResource(SERVICE, 'party');

/** 党组织: 党委 / 党总支 / 党支部, each below its parent. */
export const partyOrganizationResource = resource(
  'partyOrganization',
  'hope_party_org',
  'ApartmentOutlined',
  L('党组织', 'Party organisations'),
  'organization',
  'party_organization',
  [
    text('name', L('组织名称', 'Name'), 60, { required: true, search: 'like' }),
    {
      name: 'kind',
      label: L('组织类型', 'Kind'),
      type: 'dict',
      dict: PARTY_DICT.party_org_kind,
      required: true,
      search: 'equal',
    },
    // the tree's parent ('0': the top); the engine refuses a parent below the node or out of reach
    { name: 'parentId', label: L('上级组织', 'Parent'), type: 'ref', default: '0', list: false },
    ref('secretaryId', L('书记', 'Secretary'), 'villager', PARTY_DEMO.villagerId, { search: undefined }),
    text('secretaryName', L('书记(非本村)', 'Secretary (other)'), 20, { list: false }),
    date('foundedDate', L('成立日期', 'Founded on'), { notAfterToday: true }),
    remark(),
  ],
  {
    tree: true,
    select: { label: 'name', search: ['name'] },
  },
);

/** 党员 (villagerToParty, the spec's path): a villager, the branch, joined date, full or probationary. */
export const villagerToPartyResource = resource(
  'villagerToParty',
  'hope_villager_party',
  'FlagOutlined',
  L('党员管理', 'Party members'),
  'member',
  'villager_to_party',
  [
    ref('villagerId', L('党员', 'Member'), 'villager', PARTY_DEMO.villagerId, { required: true }),
    {
      name: 'memberType',
      label: L('党员状态', 'Status'),
      type: 'dict',
      dict: VILLAGE_DICT.party_member_type,
      required: true,
      search: 'equal',
    },
    ref('orgId', L('所在党组织', 'Organisation'), 'partyOrganization', PARTY_DEMO.orgId),
    text('branch', L('支部(原记录)', 'Branch (as recorded)'), 60, { list: false }),
    date('joinDate', L('入党日期', 'Joined on'), { notAfterToday: true, required: true }),
    date('probationEnd', L('预备期满日期', 'Probation ends on'), {
      notBefore: 'joinDate',
      // a probationary member (党员状态 预备党员) has the day their probation ends
      requiredWhen: {
        field: 'memberType',
        is: ['2'],
        message: L('预备党员须填写预备期满日期', 'A probationary member needs the date their probation ends'),
      },
    }),
    text('partyPost', L('党内职务', 'Party post'), 30),
    remark(),
  ],
  // a villager is a party member once (one member record a person)
  { defaultSort: { field: 'joinDate', desc: true }, unique: ['villagerId'] },
);

/** 党员联系户: a member and the households they look after. */
export const partyPairingResource = resource(
  'partyPairing',
  'hope_party_pairing',
  'TeamOutlined',
  L('党员联系户', 'Member–household pairings'),
  'pairing',
  'party_pairing',
  [
    ref('memberId', L('党员', 'Member'), 'villager', PARTY_DEMO.villagerId, { required: true }),
    text('householdNo', L('联系户户号', 'Household no.'), 20, {
      required: true,
      pattern: '[A-Za-z0-9-]+',
      patternMessage: L('户号只能包含字母、数字和-', 'Household no. may hold letters, digits and -'),
      search: 'equal',
      example: 'H0001',
    }),
    date('startDate', L('联系开始日期', 'Since'), { required: true }),
    area('note', L('联系情况', 'Note'), 500, { list: true }),
  ],
  // a member looks after a household once
  { defaultSort: { field: 'startDate', desc: true }, unique: [['memberId', 'householdNo']] },
);

/** 党建活动: what an organisation held, and who attended. */
export const partyActivityResource = resource(
  'partyActivity',
  'hope_party_activity',
  'CalendarOutlined',
  L('党建活动', 'Party activities'),
  'activity',
  'party_activity',
  [
    ref('orgId', L('组织', 'Organisation'), 'partyOrganization', PARTY_DEMO.orgId, { required: true }),
    text('title', L('活动主题', 'Title'), 100, { required: true, search: 'like' }),
    date('activityDate', L('活动日期', 'Date'), { required: true }),
    text('place', L('活动地点', 'Place'), 100),
    area('content', L('活动内容', 'Content'), 2000),
    {
      name: 'attendees',
      label: L('参加党员', 'Attendees'),
      type: 'refs',
      ref: 'villager',
      span: 24,
      list: false,
      example: PARTY_DEMO.villagerId,
    },
    {
      name: 'attendance',
      label: L('参加人数', 'Attendance'),
      type: 'int',
      min: 0,
      max: 100000,
      readOnly: true,
      form: false,
    },
  ],
  { defaultSort: { field: 'activityDate', desc: true } },
);

/**
 * 党建概览: the tenant's party figures from the rows the caller may read (GET partyOverview/statistics):
 * members by branch, by age band, by education (of the linked villager), and the households members look after.
 */
export const PARTY_OVERVIEW: OverviewDecl = {
  code: 'party_overview',
  label: L('党建概览', 'Party overview'),
  path: '/party/overview',
  icon: 'DashboardOutlined',
  title: L('党建概览', 'Party overview'),
  sources: { party: { url: '/api/dfem-hope-manage/partyOverview/statistics', watch: 'villagerToParty' } },
  figures: [
    { label: L('党员总数', 'Members'), value: (a) => party(a)?.members },
    { label: L('预备党员', 'Probationary'), value: (a) => party(a)?.probationary },
    { label: L('党组织', 'Organisations'), value: (a) => party(a)?.organisations },
    { label: L('党建活动', 'Activities'), value: (a) => party(a)?.activities },
    { label: L('总户数', 'Households'), value: (a) => party(a)?.households },
    { label: L('已联系户数', 'Paired households'), value: (a) => party(a)?.pairedHouseholds },
    {
      label: L('联系户覆盖率', 'Pairing coverage'),
      value: (a) => percentOf(party(a)?.pairedHouseholds, party(a)?.households),
    },
  ],
  charts: [
    {
      kind: 'bar',
      title: L('各支部党员', 'Members by branch'),
      series: L('人数', 'Members'),
      items: (a) => party(a)?.byBranch ?? [],
      color: '#c0392b',
    },
    { kind: 'pie', title: L('党员年龄结构', 'Members by age'), items: (a) => party(a)?.byAge ?? [] },
    {
      kind: 'pie',
      title: L('党员文化程度', 'Members by education'),
      items: (a) => party(a)?.byEducation ?? [],
    },
    {
      kind: 'pie',
      title: L('党员联系户覆盖', 'Household pairing coverage'),
      items: (a, lang) => {
        const o = party(a);
        if (!o) return [];
        return [
          { name: L('已联系', 'Paired')[lang], value: o.pairedHouseholds },
          { name: L('未联系', 'Not paired')[lang], value: o.households - o.pairedHouseholds },
        ];
      },
    },
  ],
};
const party = (a: OverviewAnswers) => a.party as PartyOverview | undefined;

/** 党建: the menu folder and its screens, in menu order. */
export const PARTY_AREA = defineArea({
  code: 'party',
  label: L('党建', 'Party building'),
  icon: 'FlagOutlined',
  overview: PARTY_OVERVIEW,
  resources: [
    partyOrganizationResource,
    villagerToPartyResource,
    partyPairingResource,
    partyActivityResource,
  ],
  dicts: PARTY_DICTS,
});

/** Figures of the party overview (GET partyOrganization/overview). */
export interface PartyCount {
  key: string;
  name: string;
  value: number;
}
export interface PartyOverview {
  members: number;
  probationary: number;
  organisations: number;
  activities: number;
  byBranch: PartyCount[];
  byAge: PartyCount[];
  byEducation: PartyCount[];
  households: number;
  pairedHouseholds: number;
}

/** A member whose probation ends soon (GET villagerToParty/probation-due?days=N). */
export interface ProbationDue {
  id: string;
  villagerId: string;
  villagerName: string;
  orgName: string | null;
  joinDate: string;
  probationEnd: string;
  daysLeft: number;
}
