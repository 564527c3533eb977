import type { Text2 } from './types';

/**
 * The platform dictionaries (blade_dict) the seed creates, declared once with their values in both
 * languages: the seed writes `dict_value` (zh) and `dict_value_en` (en) from here, and the server answers a
 * dictionary in the caller's language (English where given, else the Chinese). Keys, Chinese values, order
 * and codes are what screens, tests and the spec rely on: change them only with those.
 */

export interface DictItemDecl {
  key: string;
  zh: string;
  en: string;
  /** e.g. the `flow` dictionary's form family (leave, expense) */
  remark?: string;
}

export interface DictDecl {
  code: string;
  /** the dictionary's own name (its parent row's value) */
  label: Text2;
  items: readonly DictItemDecl[];
}

const text = (zh: string, en: string): Text2 => ({ zh, en });

/** Entries keyed 1, 2, 3… in the order given. */
const numbered = (pairs: readonly (readonly [zh: string, en: string])[]): DictItemDecl[] =>
  pairs.map(([zh, en], i) => ({ key: String(i + 1), zh, en }));

const dict = (code: string, label: Text2, items: readonly DictItemDecl[]): DictDecl => ({
  code,
  label,
  items,
});

/** The system's dictionaries (seed step system-v1), in the order they are created. */
export const SYSTEM_DICTS: readonly DictDecl[] = [
  dict(
    'sex',
    text('性别', 'Sex'),
    numbered([
      ['男', 'Male'],
      ['女', 'Female'],
      ['未知', 'Unknown'],
    ]),
  ),
  dict('yes_no', text('是否', 'Yes or no'), [
    { key: '0', zh: '否', en: 'No' },
    { key: '1', zh: '是', en: 'Yes' },
  ]),
  dict(
    'status',
    text('状态', 'Status'),
    numbered([
      ['正常', 'Normal'],
      ['停用', 'Disabled'],
    ]),
  ),
  dict(
    'menu_category',
    text('菜单类型', 'Menu type'),
    numbered([
      ['菜单', 'Menu'],
      ['按钮', 'Button'],
    ]),
  ),
  dict(
    'button_func',
    text('按钮功能', 'Button position'),
    numbered([
      ['工具栏', 'Toolbar'],
      ['操作栏', 'Row actions'],
      ['工具操作栏', 'Toolbar and row actions'],
    ]),
  ),
  dict(
    'notice',
    text('通知类型', 'Notice type'),
    numbered([
      ['发布通知', 'Release notice'],
      ['批转通知', 'Approved-and-forwarded notice'],
      ['转发通知', 'Forwarded notice'],
      ['指示通知', 'Instruction notice'],
      ['任命通知', 'Appointment notice'],
      ['决定通知', 'Decision notice'],
      ['通告', 'Circular'],
      ['公告', 'Announcement'],
    ]),
  ),
  dict(
    'data_scope_type',
    text('数据权限', 'Data scope'),
    numbered([
      ['全部可见', 'All data'],
      ['本人可见', 'Own data only'],
      ['所在机构可见', 'Own department'],
      ['所在机构及子级可见', 'Own department and below'],
      ['自定义', 'Custom'],
    ]),
  ),
  dict(
    'api_scope_type',
    text('接口权限', 'API scope'),
    numbered([
      ['系统接口', 'System API'],
      ['业务接口', 'Business API'],
    ]),
  ),
  dict(
    'post_category',
    text('岗位类型', 'Post category'),
    numbered([
      ['高层', 'Senior management'],
      ['中层', 'Middle management'],
      ['基层', 'Front line'],
      ['其他', 'Other'],
    ]),
  ),
  dict(
    'org_category',
    text('机构类型', 'Organisation type'),
    numbered([
      ['公司', 'Company'],
      ['部门', 'Department'],
      ['小组', 'Team'],
    ]),
  ),
  dict(
    'user_type',
    text('用户平台', 'User platform'),
    numbered([
      ['WEB', 'Web'],
      ['APP', 'App'],
      ['OTHER', 'Other'],
    ]),
  ),
  dict(
    'oss',
    text('对象存储', 'Object storage'),
    numbered([
      ['minio', 'MinIO'],
      ['qiniu', 'Qiniu'],
      ['ali', 'Alibaba Cloud'],
      ['tencent', 'Tencent Cloud'],
      ['local', 'Local disk'],
    ]),
  ),
  dict(
    'sms',
    text('短信服务', 'SMS service'),
    numbered([
      ['yunpian', 'Yunpian'],
      ['qiniu', 'Qiniu'],
      ['ali', 'Alibaba Cloud'],
      ['tencent', 'Tencent Cloud'],
    ]),
  ),
  dict('flow', text('流程类型', 'Process type'), [
    { key: '1', zh: '请假流程', en: 'Leave process', remark: 'leave' },
    { key: '2', zh: '报销流程', en: 'Expense process', remark: 'expense' },
    { key: '3', zh: '防返贫监测识别', en: 'Relief identification', remark: 'relief' },
  ]),
  dict(
    'region',
    text('行政区划', 'Administrative division'),
    numbered([
      ['省份', 'Province'],
      ['地市', 'City'],
      ['区县', 'County'],
      ['乡镇', 'Township'],
      ['村委', 'Village committee'],
    ]),
  ),
];

/** The ethnic groups of China, in the customary order (GB 3304), Chinese and English. */
const ETHNICITIES: [string, string][] = [
  ['汉族', 'Han'],
  ['蒙古族', 'Mongol'],
  ['回族', 'Hui'],
  ['藏族', 'Tibetan'],
  ['维吾尔族', 'Uyghur'],
  ['苗族', 'Miao'],
  ['彝族', 'Yi'],
  ['壮族', 'Zhuang'],
  ['布依族', 'Bouyei'],
  ['朝鲜族', 'Korean'],
  ['满族', 'Manchu'],
  ['侗族', 'Dong'],
  ['瑶族', 'Yao'],
  ['白族', 'Bai'],
  ['土家族', 'Tujia'],
  ['哈尼族', 'Hani'],
  ['哈萨克族', 'Kazakh'],
  ['傣族', 'Dai'],
  ['黎族', 'Li'],
  ['傈僳族', 'Lisu'],
  ['佤族', 'Va'],
  ['畲族', 'She'],
  ['高山族', 'Gaoshan'],
  ['拉祜族', 'Lahu'],
  ['水族', 'Shui'],
  ['东乡族', 'Dongxiang'],
  ['纳西族', 'Nakhi'],
  ['景颇族', 'Jingpo'],
  ['柯尔克孜族', 'Kyrgyz'],
  ['土族', 'Monguor (Tu)'],
  ['达斡尔族', 'Daur'],
  ['仫佬族', 'Mulao'],
  ['羌族', 'Qiang'],
  ['布朗族', 'Blang'],
  ['撒拉族', 'Salar'],
  ['毛南族', 'Maonan'],
  ['仡佬族', 'Gelao'],
  ['锡伯族', 'Xibe'],
  ['阿昌族', 'Achang'],
  ['普米族', 'Pumi'],
  ['塔吉克族', 'Tajik'],
  ['怒族', 'Nu'],
  ['乌孜别克族', 'Uzbek'],
  ['俄罗斯族', 'Russian'],
  ['鄂温克族', 'Evenki'],
  ['德昂族', "De'ang"],
  ['保安族', 'Bonan'],
  ['裕固族', 'Yugur'],
  ['京族', 'Gin'],
  ['塔塔尔族', 'Tatar'],
  ['独龙族', 'Derung'],
  ['鄂伦春族', 'Oroqen'],
  ['赫哲族', 'Hezhen'],
  ['门巴族', 'Monpa'],
  ['珞巴族', 'Lhoba'],
  ['基诺族', 'Jino'],
];

/** Village affairs' dictionaries (seed step village-v1), keyed 1, 2, 3…, in the order they are created. */
export const VILLAGE_DICTS: readonly DictDecl[] = [
  dict('ethnicity', text('民族', 'Ethnic group'), numbered(ETHNICITIES)),
  dict(
    'household_relation',
    text('与户主关系', 'Relationship to head of household'),
    numbered([
      ['户主', 'Head of household'],
      ['配偶', 'Spouse'],
      ['子女', 'Child'],
      ['父母', 'Parent'],
      ['孙子女', 'Grandchild'],
      ['兄弟姐妹', 'Sibling'],
      ['其他', 'Other'],
    ]),
  ),
  dict(
    'village_group',
    text('村民小组', 'Village group'),
    numbered([
      ['第一村民小组', 'Village group 1'],
      ['第二村民小组', 'Village group 2'],
      ['第三村民小组', 'Village group 3'],
      ['第四村民小组', 'Village group 4'],
      ['第五村民小组', 'Village group 5'],
      ['第六村民小组', 'Village group 6'],
    ]),
  ),
  dict(
    'political_status',
    text('政治面貌', 'Political status'),
    numbered([
      ['群众', 'Masses (non-party)'],
      ['中共党员', 'CPC member'],
      ['中共预备党员', 'CPC probationary member'],
      ['共青团员', 'Communist Youth League member'],
      ['民主党派', 'Democratic party member'],
    ]),
  ),
  dict(
    'education',
    text('文化程度', 'Education'),
    numbered([
      ['学龄前', 'Preschool'],
      ['小学', 'Primary school'],
      ['初中', 'Junior high school'],
      ['高中/中专', 'Senior high / secondary vocational'],
      ['大专', 'Junior college'],
      ['本科及以上', "Bachelor's degree or above"],
      ['文盲或半文盲', 'Illiterate or semi-literate'],
    ]),
  ),
  dict(
    'marital_status',
    text('婚姻状况', 'Marital status'),
    numbered([
      ['未婚', 'Unmarried'],
      ['已婚', 'Married'],
      ['离异', 'Divorced'],
      ['丧偶', 'Widowed'],
    ]),
  ),
  dict(
    'labour_status',
    text('劳动力状况', 'Labour capacity'),
    numbered([
      ['普通劳动力', 'Full labour capacity'],
      ['弱劳动力', 'Limited labour capacity'],
      ['丧失劳动力', 'Lost labour capacity'],
      ['无劳动力', 'No labour capacity'],
    ]),
  ),
  dict(
    'party_member_type',
    text('党员类别', 'Party member type'),
    numbered([
      ['正式党员', 'Full member'],
      ['预备党员', 'Probationary member'],
    ]),
  ),
  dict(
    'cadre_position',
    text('村干部职务', 'Village cadre position'),
    numbered([
      ['党支部书记', 'Party branch secretary'],
      ['村委会主任', 'Village committee director'],
      ['村委会副主任', 'Village committee deputy director'],
      ['村委会委员', 'Village committee member'],
      ['村务监督委员会主任', 'Village affairs supervision committee director'],
      ['村会计', 'Village accountant'],
      ['妇女主任', "Women's affairs director"],
      ['网格员', 'Grid worker'],
      ['团支部书记', 'Youth League branch secretary'],
      ['民兵连长', 'Militia company commander'],
    ]),
  ),
  dict(
    'org_kind',
    text('组织类型', 'Organisation type'),
    numbered([
      ['村委会', 'Village committee'],
      ['党支部', 'Party branch'],
      ['合作社', 'Cooperative'],
      ['群团组织', 'Mass organisation'],
    ]),
  ),
  dict(
    'grid_role',
    text('网格角色', 'Grid role'),
    numbered([
      ['网格长', 'Grid leader'],
      ['专职网格员', 'Full-time grid worker'],
      ['兼职网格员', 'Part-time grid worker'],
      ['网格成员', 'Grid member'],
    ]),
  ),
  dict(
    'duty_shift',
    text('值班班次', 'Duty shift'),
    numbered([
      ['白班', 'Day shift'],
      ['夜班', 'Night shift'],
      ['全天', 'All day'],
    ]),
  ),
  dict(
    'task_status',
    text('任务状态', 'Task status'),
    numbered([
      ['未开始', 'Not started'],
      ['进行中', 'In progress'],
      ['已完成', 'Completed'],
      ['已逾期', 'Overdue'],
    ]),
  ),
  dict(
    'assessment_grade',
    text('考核等次', 'Assessment grade'),
    numbered([
      ['优秀', 'Excellent'],
      ['称职', 'Competent'],
      ['基本称职', 'Basically competent'],
      ['不称职', 'Not competent'],
    ]),
  ),
  dict(
    'score_category',
    text('积分类别', 'Score category'),
    numbered([
      ['孝老爱亲', 'Caring for elders and family'],
      ['环境卫生', 'Environmental hygiene'],
      ['移风易俗', 'Reforming old customs'],
      ['遵纪守法', 'Law-abiding conduct'],
      ['志愿服务', 'Volunteer service'],
      ['产业发展', 'Industry development'],
    ]),
  ),
  dict(
    'grant_status',
    text('发放状态', 'Payment status'),
    numbered([
      ['已发放', 'Paid'],
      ['待发放', 'Awaiting payment'],
      ['已停发', 'Stopped'],
    ]),
  ),
  dict(
    'vehicle_type',
    text('车辆类型', 'Vehicle type'),
    numbered([
      ['小型汽车', 'Small car'],
      ['货车', 'Truck'],
      ['农用车', 'Farm vehicle'],
      ['摩托车', 'Motorcycle'],
      ['电动车', 'Electric bike'],
      ['其他', 'Other'],
    ]),
  ),
  dict(
    'vehicle_usage',
    text('使用性质', 'Vehicle use'),
    numbered([
      ['自用', 'Private'],
      ['营运', 'Commercial'],
      ['农用', 'Agricultural'],
    ]),
  ),
  dict(
    'filing_kind',
    text('红白事类别', 'Wedding or funeral type'),
    numbered([
      ['婚事', 'Wedding'],
      ['丧事', 'Funeral'],
      ['寿宴', 'Birthday banquet'],
      ['升学宴', 'School admission banquet'],
      ['其他', 'Other'],
    ]),
  ),
  dict(
    'filing_status',
    text('备案状态', 'Filing status'),
    numbered([
      ['待审核', 'Awaiting review'],
      ['已备案', 'Filed'],
      ['已退回', 'Returned'],
    ]),
  ),
  dict(
    'review_kind',
    text('评议类型', 'Appraisal type'),
    numbered([
      ['民主评议党员', 'Democratic appraisal of party members'],
      ['村干部述职评议', 'Appraisal of village cadres’ reports'],
      ['重大事项评议', 'Appraisal of major matters'],
    ]),
  ),
  dict(
    'review_result',
    text('评议结果', 'Appraisal result'),
    numbered([
      ['满意', 'Satisfied'],
      ['基本满意', 'Mostly satisfied'],
      ['不满意', 'Dissatisfied'],
    ]),
  ),
  dict(
    'visit_kind',
    text('走访类型', 'Visit type'),
    numbered([
      ['日常走访', 'Routine visit'],
      ['困难帮扶', 'Hardship assistance'],
      ['政策宣传', 'Policy outreach'],
      ['矛盾调解', 'Dispute mediation'],
    ]),
  ),
  dict(
    'follow_status',
    text('办理状态', 'Follow-up status'),
    numbered([
      ['无需跟进', 'No follow-up needed'],
      ['跟进中', 'Following up'],
      ['已办结', 'Closed'],
    ]),
  ),
  dict(
    'petition_kind',
    text('来访事项类别', 'Petition category'),
    numbered([
      ['土地纠纷', 'Land dispute'],
      ['邻里矛盾', 'Dispute between neighbours'],
      ['政策咨询', 'Policy enquiry'],
      ['低保救助', 'Subsistence allowance'],
      ['环境卫生', 'Environmental hygiene'],
      ['其他', 'Other'],
    ]),
  ),
  dict(
    'reception_status',
    text('接待办理状态', 'Reception status'),
    numbered([
      ['受理中', 'Being handled'],
      ['已办结', 'Closed'],
      ['已转办', 'Referred elsewhere'],
    ]),
  ),
];

/** Evaluation's dictionaries (seed step evaluation-v1). */
export const EVALUATION_DICTS: readonly DictDecl[] = [
  dict(
    'evaluation_project_status',
    text('评比项目状态', 'Evaluation project status'),
    numbered([
      ['草稿', 'Draft'],
      ['进行中', 'In progress'],
      ['已发布', 'Published'],
    ]),
  ),
  dict(
    'evaluation_subject_type',
    text('评比对象类型', 'Evaluated subject type'),
    numbered([
      ['村民小组', 'Villager group'],
      ['农户', 'Household'],
      ['村干部', 'Cadre'],
    ]),
  ),
];

/** The party-building area's dictionaries (seed step party-v1). */
export const PARTY_DICTS: readonly DictDecl[] = [
  dict(
    'party_org_kind',
    text('党组织类型', 'Party organisation kind'),
    numbered([
      ['党委', 'Party committee'],
      ['党总支', 'General party branch'],
      ['党支部', 'Party branch'],
    ]),
  ),
];

/** The poverty-relief area's dictionaries (seed step relief-v1). */
export const RELIEF_DICTS: readonly DictDecl[] = [
  dict(
    'relief_monitor_kind',
    text('监测对象类别', 'Monitored household kind'),
    numbered([
      ['脱贫不稳定户', 'Unstable household out of poverty'],
      ['边缘易致贫户', 'Marginal household at risk of poverty'],
      ['突发严重困难户', 'Household in sudden severe hardship'],
    ]),
  ),
  dict(
    'relief_risk_kind',
    text('风险类型', 'Risk kind'),
    numbered([
      ['因病', 'Illness'],
      ['因学', 'Schooling costs'],
      ['因残', 'Disability'],
      ['因灾', 'Disaster'],
      ['因意外', 'Accident'],
      ['产业失败', 'Business failure'],
      ['务工不稳', 'Unstable work'],
      ['缺劳动力', 'Lack of labour'],
    ]),
  ),
  dict(
    'relief_source',
    text('发现方式', 'How a household was found'),
    numbered([
      ['农户申请', 'Household applied'],
      ['走访发现', 'Found on a visit'],
      ['部门预警', 'Department alert'],
    ]),
  ),
  dict(
    'relief_stage',
    text('识别状态', 'Identification stage'),
    numbered([
      ['待村级评议', 'Village review'],
      ['公示中', 'Public notice'],
      ['待乡镇认定', 'Township identification'],
      ['监测中', 'Monitored'],
      ['风险已消除', 'Risk removed'],
      ['未纳入', 'Not identified'],
    ]),
  ),
  dict(
    'relief_measure_kind',
    text('帮扶措施类型', 'Supporting measure kind'),
    numbered([
      ['产业帮扶', 'Industry'],
      ['就业帮扶', 'Employment'],
      ['健康帮扶', 'Health'],
      ['教育帮扶', 'Education'],
      ['住房保障', 'Housing'],
      ['饮水安全', 'Drinking water'],
      ['金融帮扶', 'Finance'],
      ['兜底保障', 'Basic living allowance'],
    ]),
  ),
  dict(
    'relief_measure_status',
    text('措施落实状态', 'Measure status'),
    numbered([
      ['落实中', 'In progress'],
      ['已完成', 'Completed'],
      ['已终止', 'Stopped'],
    ]),
  ),
  dict(
    'relief_policy_category',
    text('政策类别', 'Policy category'),
    numbered([
      ['产业', 'Industry'],
      ['就业', 'Employment'],
      ['教育', 'Education'],
      ['医疗', 'Medical care'],
      ['住房', 'Housing'],
      ['社会保障', 'Social security'],
      ['金融', 'Finance'],
    ]),
  ),
];

/** The safety area's dictionaries (seed step safety-v1). */
export const SAFETY_DICTS: readonly DictDecl[] = [
  dict(
    'camera_stream_kind',
    text('视频流类型', 'Stream kind'),
    numbered([
      ['HLS', 'HLS'],
      ['HTTP-FLV', 'HTTP-FLV'],
      ['RTSP/RTMP', 'RTSP/RTMP'],
    ]),
  ),
  dict(
    'camera_codec',
    text('视频编码', 'Video codec'),
    numbered([
      ['H.264', 'H.264'],
      ['H.265', 'H.265'],
    ]),
  ),
  dict(
    'security_incident_kind',
    text('治安事件类型', 'Incident kind'),
    numbered([
      ['矛盾纠纷', 'Dispute'],
      ['盗窃', 'Theft'],
      ['火灾隐患', 'Fire hazard'],
      ['交通事故', 'Traffic accident'],
      ['可疑人员', 'Suspicious person'],
      ['其他', 'Other'],
    ]),
  ),
  dict(
    'security_incident_status',
    text('处理状态', 'Handling status'),
    numbered([
      ['待处理', 'Open'],
      ['处理中', 'In progress'],
      ['已办结', 'Closed'],
    ]),
  ),
];

/** The assistance and care area's dictionaries (seed step assistance-v1). */
export const ASSISTANCE_DICTS: readonly DictDecl[] = [
  dict(
    'assistance_unit_kind',
    text('帮扶单位类型', 'Assistance unit kind'),
    numbered([
      ['驻村工作队', 'Resident work team'],
      ['帮扶单位', 'Paired unit'],
      ['企业', 'Enterprise'],
      ['社会组织', 'Social organisation'],
      ['其他', 'Other'],
    ]),
  ),
  dict(
    'assistance_project_category',
    text('帮扶项目类别', 'Assistance project category'),
    numbered([
      ['产业帮扶', 'Industry'],
      ['基础设施', 'Infrastructure'],
      ['教育帮扶', 'Education'],
      ['医疗健康', 'Health'],
      ['就业帮扶', 'Employment'],
      ['其他', 'Other'],
    ]),
  ),
  dict(
    'assistance_project_status',
    text('帮扶项目状态', 'Assistance project status'),
    numbered([
      ['规划中', 'Planned'],
      ['实施中', 'Under way'],
      ['已完成', 'Completed'],
      ['已暂停', 'Suspended'],
    ]),
  ),
  dict(
    'assistance_system_category',
    text('帮扶制度类别', 'Assistance system category'),
    numbered([
      ['管理制度', 'Management rules'],
      ['资金管理', 'Funds management'],
      ['考核办法', 'Assessment'],
      ['工作职责', 'Duties'],
    ]),
  ),
  dict(
    'information_category',
    text('资讯类别', 'News category'),
    numbered([
      ['帮扶动态', 'Assistance news'],
      ['政策资讯', 'Policy'],
      ['通知公告', 'Announcement'],
      ['典型案例', 'Case study'],
    ]),
  ),
  dict('information_status', text('资讯发布状态', 'News publishing status'), [
    { key: '1', zh: '已发布', en: 'Published' },
    { key: '2', zh: '已隐藏', en: 'Hidden' },
  ]),
  dict(
    'care_video_category',
    text('关爱视频类别', 'Care video category'),
    numbered([
      ['关爱留守儿童', 'Left-behind children'],
      ['关爱老人', 'Elderly care'],
      ['健康知识', 'Health'],
      ['技能培训', 'Skills training'],
      ['其他', 'Other'],
    ]),
  ),
];

/** The telemetry core's dictionaries (seed step telemetry-v1). */
export const TELEMETRY_DICTS: readonly DictDecl[] = [
  dict(
    'device_kind',
    text('设备类型', 'Device kind'),
    numbered([
      ['气象站', 'Weather station'],
      ['土壤墒情', 'Soil sensor'],
      ['虫情测报灯', 'Pest trap lamp'],
      ['摄像头', 'Camera'],
      ['边坡监测', 'Slope monitor'],
      ['逆变器', 'Inverter'],
      ['数据采集器', 'Data collector'],
    ]),
  ),
  dict(
    'device_alarm_kind',
    text('告警类型', 'Alarm kind'),
    numbered([
      ['超出阈值', 'Threshold crossed'],
      ['设备离线', 'Device offline'],
      ['组串异常', 'String under-performing'],
    ]),
  ),
  dict(
    'device_alarm_state',
    text('告警状态', 'Alarm state'),
    numbered([
      ['未处理', 'Raised'],
      ['已确认', 'Acknowledged'],
      ['已关闭', 'Closed'],
    ]),
  ),
];

/** The smart-agriculture area's dictionaries (seed step agriculture-v1). */
export const AGRICULTURE_DICTS: readonly DictDecl[] = [
  dict(
    'agri_operation',
    text('农事操作', 'Farming operation'),
    numbered([
      ['翻耕', 'Ploughing'],
      ['播种', 'Sowing'],
      ['施肥', 'Fertilising'],
      ['灌溉', 'Irrigation'],
      ['植保', 'Crop protection'],
      ['采收', 'Harvest'],
    ]),
  ),
  dict(
    'agri_crop',
    text('种植作物', 'Crop'),
    numbered([
      ['水稻', 'Rice'],
      ['玉米', 'Maize'],
      ['油菜', 'Rapeseed'],
      ['蔬菜', 'Vegetables'],
      ['茶叶', 'Tea'],
      ['柑橘', 'Citrus'],
      ['其他', 'Other'],
    ]),
  ),
  dict(
    'agri_soil_type',
    text('土壤类型', 'Soil type'),
    numbered([
      ['红壤', 'Red soil'],
      ['黄壤', 'Yellow soil'],
      ['水稻土', 'Paddy soil'],
      ['潮土', 'Fluvo-aquic soil'],
      ['紫色土', 'Purple soil'],
    ]),
  ),
  dict(
    'agri_owner_kind',
    text('经营主体类型', 'Plot holder kind'),
    numbered([
      ['农户', 'Household'],
      ['合作社', 'Cooperative'],
      ['村集体', 'Village collective'],
    ]),
  ),
  dict(
    'agri_season',
    text('季节', 'Season'),
    numbered([
      ['春季', 'Spring'],
      ['夏季', 'Summer'],
      ['秋季', 'Autumn'],
      ['冬季', 'Winter'],
    ]),
  ),
  dict(
    'agri_seedling_unit',
    text('种苗单位', 'Seedling unit'),
    numbered([
      ['株', 'plants'],
      ['千克', 'kg'],
      ['袋', 'bags'],
      ['盘', 'trays'],
    ]),
  ),
  dict(
    'agri_coop_kind',
    text('经营主体类别', 'Cooperative kind'),
    numbered([
      ['农民专业合作社', 'Farmers’ cooperative'],
      ['家庭农场', 'Family farm'],
      ['农业企业', 'Agricultural company'],
    ]),
  ),
  dict(
    'agri_certification',
    text('农产品认证', 'Produce certification'),
    numbered([
      ['无公害农产品', 'Pollution-free'],
      ['绿色食品', 'Green food'],
      ['有机产品', 'Organic'],
      ['地理标志', 'Geographical indication'],
    ]),
  ),
  dict(
    'agri_industry_category',
    text('产业类别', 'Industry category'),
    numbered([
      ['种植业', 'Crop farming'],
      ['养殖业', 'Animal husbandry'],
      ['农产品加工', 'Produce processing'],
      ['乡村旅游', 'Rural tourism'],
      ['农村电商', 'Rural e-commerce'],
    ]),
  ),
  dict(
    'agri_species',
    text('养殖品种', 'Species'),
    numbered([
      ['生猪', 'Pigs'],
      ['肉牛', 'Beef cattle'],
      ['山羊', 'Goats'],
      ['家禽', 'Poultry'],
      ['淡水鱼', 'Freshwater fish'],
      ['其他', 'Other'],
    ]),
  ),
  dict(
    'agri_stock_unit',
    text('存栏单位', 'Stock unit'),
    numbered([
      ['头', 'head'],
      ['只', 'animals'],
      ['羽', 'birds'],
      ['尾', 'fish'],
      ['千克', 'kg'],
    ]),
  ),
];

/** The PV stations' dictionaries (seed step power-v1). */
export const POWER_DICTS: readonly DictDecl[] = [
  dict(
    'power_protocol',
    text('通讯协议', 'Protocol'),
    numbered([
      ['Modbus RTU', 'Modbus RTU'],
      ['Modbus TCP', 'Modbus TCP'],
      ['IEC 104', 'IEC 104'],
      ['MQTT', 'MQTT'],
    ]),
  ),
  dict(
    'power_equipment_state',
    text('设备状态', 'Equipment state'),
    numbered([
      ['在用', 'In use'],
      ['停用', 'Out of use'],
      ['维修', 'Under repair'],
    ]),
  ),
  dict(
    'new_energy_kind',
    text('新能源设备类型', 'New-energy device kind'),
    numbered([
      ['空气源热泵', 'Heat pump'],
      ['储能', 'Storage'],
      ['充电桩', 'Charger'],
    ]),
  ),
  dict(
    'power_code_type',
    text('采集配置类型', 'Settings type'),
    numbered([
      ['逆变器', 'Inverter'],
      ['采集器', 'Collector'],
      ['电表', 'Meter'],
    ]),
  ),
];

/** Every platform dictionary declared in code. */
export const PLATFORM_DICTS: readonly DictDecl[] = [
  ...SYSTEM_DICTS,
  ...VILLAGE_DICTS,
  ...EVALUATION_DICTS,
  ...PARTY_DICTS,
  ...RELIEF_DICTS,
  ...ASSISTANCE_DICTS,
  ...SAFETY_DICTS,
  ...TELEMETRY_DICTS,
  ...AGRICULTURE_DICTS,
  ...POWER_DICTS,
];
