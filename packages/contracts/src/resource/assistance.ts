import { dictCodes, dictionary, numbered } from './dicts';
import { area, dict as dictField, money, remark, text } from './fields';
import { percentOf, yuanText } from './overview';
import {
  areaResource,
  type DictCode,
  defineArea,
  type FieldDef,
  L,
  type OverviewAnswers,
  type OverviewDecl,
  type Text2,
} from './types';

/** The assistance and care area's dictionaries (seed step assistance-v1). */
export const ASSISTANCE_DICTS = [
  dictionary(
    'assistance_unit_kind',
    L('帮扶单位类型', 'Assistance unit kind'),
    numbered([
      ['驻村工作队', 'Resident work team'],
      ['帮扶单位', 'Paired unit'],
      ['企业', 'Enterprise'],
      ['社会组织', 'Social organisation'],
      ['其他', 'Other'],
    ]),
  ),
  dictionary(
    'assistance_project_category',
    L('帮扶项目类别', 'Assistance project category'),
    numbered([
      ['产业帮扶', 'Industry'],
      ['基础设施', 'Infrastructure'],
      ['教育帮扶', 'Education'],
      ['医疗健康', 'Health'],
      ['就业帮扶', 'Employment'],
      ['其他', 'Other'],
    ]),
  ),
  dictionary(
    'assistance_project_status',
    L('帮扶项目状态', 'Assistance project status'),
    numbered([
      ['规划中', 'Planned'],
      ['实施中', 'Under way'],
      ['已完成', 'Completed'],
      ['已暂停', 'Suspended'],
    ]),
  ),
  dictionary(
    'assistance_system_category',
    L('帮扶制度类别', 'Assistance system category'),
    numbered([
      ['管理制度', 'Management rules'],
      ['资金管理', 'Funds management'],
      ['考核办法', 'Assessment'],
      ['工作职责', 'Duties'],
    ]),
  ),
  dictionary(
    'information_category',
    L('资讯类别', 'News category'),
    numbered([
      ['帮扶动态', 'Assistance news'],
      ['政策资讯', 'Policy'],
      ['通知公告', 'Announcement'],
      ['典型案例', 'Case study'],
    ]),
  ),
  dictionary('information_status', L('资讯发布状态', 'News publishing status'), [
    { key: '1', zh: '已发布', en: 'Published' },
    { key: '2', zh: '已隐藏', en: 'Hidden' },
  ]),
  dictionary(
    'care_video_category',
    L('关爱视频类别', 'Care video category'),
    numbered([
      ['关爱留守儿童', 'Left-behind children'],
      ['关爱老人', 'Elderly care'],
      ['健康知识', 'Health'],
      ['技能培训', 'Skills training'],
      ['其他', 'Other'],
    ]),
  ),
];

/** What a field names its dictionary by: `ASSISTANCE_DICT.<code>` (a code not declared above does not compile). */
export const ASSISTANCE_DICT = dictCodes(ASSISTANCE_DICTS);

/**
 * Assistance and care (帮扶关爱, spec §1, §7 dfem-hope-manage: assistanceUnit, assistanceProject,
 * assistanceSystem, information; reception and care videos by the same conventions): the units that help
 * the village (驻村工作队, 帮扶单位 …), their projects with budget, spend, period and progress, the
 * assistance system's documents, news and information (rich text cleaned by the server, a cover, published
 * or hidden), reception records, and care videos (an uploaded MP4/WebM file or an address) with a player.
 * Domain: shared/design/domain.md "Assistance and care".
 */

const SERVICE = 'dfem-hope-manage';

/** Rows the demo seed always creates (tenant 000000): generated tests reference them as valid samples. */
export const ASSISTANCE_DEMO = {
  unitId: '1190000000001300001',
} as const;

/** The news status dictionary's keys (information_status). */
export const INFORMATION_STATUS = { published: '1', hidden: '2' } as const;

const resource = areaResource(SERVICE, 'assistance');

/** every dictionary of this area is a filter of its list */
const dict = (name: string, label: Text2, code: DictCode, opts: Partial<FieldDef> = {}): FieldDef =>
  dictField(name, label, code, { search: 'equal', ...opts });

/** 帮扶单位: who helps (a resident work team, a paired unit, an enterprise …), its leader and contact. */
export const assistanceUnitResource = resource(
  'assistanceUnit',
  'hope_assistance_unit',
  'TeamOutlined',
  L('帮扶单位', 'Assistance units'),
  'unit',
  'assistance_unit',
  [
    text('name', L('单位名称', 'Name'), 60, { required: true, search: 'like' }),
    dict('kind', L('单位类型', 'Kind'), ASSISTANCE_DICT.assistance_unit_kind, { required: true }),
    text('leader', L('负责人', 'Leader'), 20, { search: 'like' }),
    { name: 'contactPhone', label: L('联系电话', 'Contact phone'), type: 'phone', max: 20 },
    {
      name: 'members',
      label: L('成员人数', 'Members'),
      type: 'int',
      min: 0,
      max: 10000,
      unit: L('人', 'people'),
    },
    {
      name: 'dispatchPeriod',
      label: L('派驻期间', 'Dispatched'),
      type: 'dateRange',
      example: '2026-01-01,2027-12-31',
    },
    remark(),
  ],
  { unique: ['name'], select: { label: 'name', search: ['name', 'leader'] } },
);

/** 帮扶项目: a unit's project, its funds (budget and what was spent), period and progress. */
export const assistanceProjectResource = resource(
  'assistanceProject',
  'hope_assistance_project',
  'ScheduleOutlined',
  L('帮扶项目', 'Assistance projects'),
  'project',
  'assistance_project',
  [
    text('name', L('项目名称', 'Name'), 100, { required: true, search: 'like' }),
    {
      name: 'unitId',
      label: L('帮扶单位', 'Unit'),
      type: 'ref',
      ref: 'assistanceUnit',
      required: true,
      search: 'equal',
      example: ASSISTANCE_DEMO.unitId,
    },
    dict('category', L('项目类别', 'Category'), ASSISTANCE_DICT.assistance_project_category, {
      required: true,
    }),
    money('budget', L('预算资金', 'Budget'), { required: true }),
    money('spend', L('已支出', 'Spent'), {
      default: 0,
      notAbove: {
        field: 'budget',
        message: L('已支出不能超过预算资金', 'The amount spent cannot exceed the budget'),
      },
    }),
    {
      name: 'period',
      label: L('项目周期', 'Period'),
      type: 'dateRange',
      required: true,
      example: '2026-01-01,2026-12-31',
    },
    {
      name: 'progress',
      label: L('进度', 'Progress'),
      type: 'int',
      min: 0,
      max: 100,
      default: 0,
      unit: L('%', '%'),
    },
    dict('projectStatus', L('项目状态', 'Status'), ASSISTANCE_DICT.assistance_project_status, {
      required: true,
    }),
    remark(),
  ],
);

/** 帮扶制度: the rules the assistance works by, with their documents. */
export const assistanceSystemResource = resource(
  'assistanceSystem',
  'hope_assistance_system',
  'FileTextOutlined',
  L('帮扶制度', 'Assistance system'),
  'system',
  'assistance_system',
  [
    text('title', L('制度名称', 'Title'), 100, { required: true, search: 'like' }),
    dict('category', L('制度类别', 'Category'), ASSISTANCE_DICT.assistance_system_category, {
      required: true,
    }),
    { name: 'documents', label: L('制度文件', 'Documents'), type: 'files', max: 2000, span: 24 },
    { name: 'effectiveDate', label: L('施行日期', 'Effective from'), type: 'date' },
    remark(),
  ],
  { defaultSort: { field: 'effectiveDate', desc: true } },
);

/** 新闻资讯: news with a cover and formatted content (cleaned by the server), published or hidden. */
export const informationResource = resource(
  'information',
  'hope_information',
  'ReadOutlined',
  L('新闻资讯', 'News and information'),
  'information',
  'information',
  [
    text('title', L('标题', 'Title'), 100, { required: true, search: 'like' }),
    dict('category', L('资讯类别', 'Category'), ASSISTANCE_DICT.information_category, { required: true }),
    { name: 'cover', label: L('封面', 'Cover'), type: 'image', max: 255, list: false, excel: false },
    {
      name: 'content',
      label: L('内容', 'Content'),
      type: 'richText',
      required: true,
      span: 24,
      list: false,
    },
    dict('publishStatus', L('发布状态', 'Published'), ASSISTANCE_DICT.information_status, {
      required: true,
      default: INFORMATION_STATUS.hidden,
    }),
    { name: 'publishTime', notAfterToday: true, label: L('发布时间', 'Published at'), type: 'datetime' },
  ],
  { defaultSort: { field: 'publishTime', desc: true } },
);

/** 接待记录: visitors the assistance work received. */
export const assistanceReceptionResource = resource(
  'assistanceReception',
  'hope_assistance_reception',
  'SolutionOutlined',
  L('接待记录', 'Reception'),
  'reception',
  'assistance_reception',
  [
    text('visitorName', L('来访人', 'Visitor'), 20, { required: true, search: 'like' }),
    text('visitorUnit', L('来访单位', 'Visitor unit'), 60, { search: 'like' }),
    { name: 'phone', label: L('联系电话', 'Phone'), type: 'phone', max: 20 },
    {
      name: 'visitTime',
      notAfterToday: true,
      label: L('来访时间', 'Visited at'),
      type: 'datetime',
      required: true,
    },
    { name: 'persons', label: L('来访人数', 'Persons'), type: 'int', min: 1, max: 1000, default: 1 },
    area('purpose', L('来访事由', 'Purpose'), 500, { required: true, list: true }),
    text('receiver', L('接待人', 'Received by'), 20),
    remark(),
  ],
  { defaultSort: { field: 'visitTime', desc: true } },
);

/** 关爱视频: a video uploaded to the server (MP4 / WebM) or an address, with its category. */
export const careVideoResource = resource(
  'careVideo',
  'hope_care_video',
  'VideoCameraOutlined',
  L('关爱视频', 'Care videos'),
  'video',
  'care_video',
  [
    text('title', L('视频标题', 'Title'), 100, { required: true, search: 'like' }),
    dict('category', L('视频类别', 'Category'), ASSISTANCE_DICT.care_video_category, { required: true }),
    {
      name: 'videoFile',
      label: L('视频文件', 'Video file'),
      type: 'video',
      list: false,
      excel: false,
      // a care video plays something: an uploaded file or an address
      requiredWhen: {
        field: 'videoUrl',
        blank: true,
        message: L('请上传视频文件或填写视频地址', 'Upload a video file or enter a video address'),
      },
    },
    {
      name: 'videoUrl',
      label: L('视频地址', 'Video address'),
      type: 'videoUrl',
      list: false,
      example: 'https://video.example.com/care/1.mp4',
    },
    { name: 'cover', label: L('封面', 'Cover'), type: 'image', max: 255, list: false, excel: false },
    area('description', L('视频简介', 'Description'), 500),
  ],
);

/** 帮扶概览: units, projects within budget, news, videos, receptions (GET assistanceOverview/statistics). */
export const ASSISTANCE_OVERVIEW: OverviewDecl = {
  code: 'assistance_overview',
  label: L('帮扶概览', 'Assistance overview'),
  path: '/assistance/overview',
  icon: 'DashboardOutlined',
  title: L('帮扶概览', 'Assistance overview'),
  sources: {
    assistance: { url: '/api/dfem-hope-manage/assistanceOverview/statistics', watch: 'assistanceProject' },
  },
  figures: [
    { label: L('帮扶单位', 'Units'), value: (a) => assistance(a)?.units },
    { label: L('帮扶项目', 'Projects'), value: (a) => assistance(a)?.projects },
    { label: L('预算资金(元)', 'Budget (CNY)'), value: (a, lang) => yuanText(assistance(a)?.budget, lang) },
    { label: L('已支出(元)', 'Spent (CNY)'), value: (a, lang) => yuanText(assistance(a)?.spend, lang) },
    {
      label: L('资金执行率', 'Funds spent'),
      value: (a) => percentOf(assistance(a)?.spend, assistance(a)?.budget),
    },
    { label: L('已发布资讯', 'Published news'), value: (a) => assistance(a)?.publishedNews },
    { label: L('关爱视频', 'Care videos'), value: (a) => assistance(a)?.videos },
    { label: L('接待记录', 'Receptions'), value: (a) => assistance(a)?.receptions },
  ],
  charts: [
    {
      kind: 'bars',
      title: L('各单位预算与支出', 'Budget and spend per unit'),
      categories: (a) => (assistance(a)?.byUnit ?? []).map((u) => u.name),
      series: [
        {
          label: L('预算', 'Budget'),
          values: (a) => (assistance(a)?.byUnit ?? []).map((u) => u.budget),
          color: '#1677ff',
        },
        {
          label: L('支出', 'Spent'),
          values: (a) => (assistance(a)?.byUnit ?? []).map((u) => u.spend),
          color: '#fa8c16',
        },
      ],
    },
    {
      kind: 'pie',
      title: L('项目状态分布', 'Projects by status'),
      items: (a) => assistance(a)?.byStatus ?? [],
    },
  ],
};
const assistance = (a: OverviewAnswers) => a.assistance as AssistanceOverview | undefined;

/** 帮扶关爱: the menu folder and its screens, in menu order. */
export const ASSISTANCE_AREA = defineArea({
  code: 'assistance',
  label: L('帮扶关爱', 'Assistance and care'),
  icon: 'HeartOutlined',
  overview: ASSISTANCE_OVERVIEW,
  resources: [
    assistanceProjectResource,
    assistanceUnitResource,
    assistanceSystemResource,
    informationResource,
    assistanceReceptionResource,
    careVideoResource,
  ],
  dicts: ASSISTANCE_DICTS,
});

/** Figures of the assistance overview (GET assistanceOverview/statistics). */
export interface AssistanceUnitFunds {
  key: string;
  name: string;
  /** 元, two decimals */
  budget: number;
  spend: number;
  projects: number;
}
export interface AssistanceCount {
  key: string;
  name: string;
  value: number;
}
export interface AssistanceOverview {
  units: number;
  projects: number;
  budget: number;
  spend: number;
  publishedNews: number;
  videos: number;
  receptions: number;
  byUnit: AssistanceUnitFunds[];
  byStatus: AssistanceCount[];
}
