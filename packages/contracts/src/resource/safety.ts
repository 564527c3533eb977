import { dictCodes, dictionary, numbered } from './dicts';
import { area, dict, phone, ref, refs, remark, text } from './fields';
import { percentOf } from './overview';
import {
  areaResource,
  defineArea,
  type FieldDef,
  L,
  type OverviewAnswers,
  type OverviewDecl,
  type Text2,
} from './types';

/** The safety area's dictionaries (seed step safety-v1). */
export const SAFETY_DICTS = [
  dictionary(
    'camera_stream_kind',
    L('视频流类型', 'Stream kind'),
    numbered([
      ['HLS', 'HLS'],
      ['HTTP-FLV', 'HTTP-FLV'],
      ['RTSP/RTMP', 'RTSP/RTMP'],
    ]),
  ),
  dictionary(
    'camera_codec',
    L('视频编码', 'Video codec'),
    numbered([
      ['H.264', 'H.264'],
      ['H.265', 'H.265'],
    ]),
  ),
  dictionary(
    'security_incident_kind',
    L('治安事件类型', 'Incident kind'),
    numbered([
      ['矛盾纠纷', 'Dispute'],
      ['盗窃', 'Theft'],
      ['火灾隐患', 'Fire hazard'],
      ['交通事故', 'Traffic accident'],
      ['可疑人员', 'Suspicious person'],
      ['其他', 'Other'],
    ]),
  ),
  dictionary(
    'security_incident_status',
    L('处理状态', 'Handling status'),
    numbered([
      ['待处理', 'Open'],
      ['处理中', 'In progress'],
      ['已办结', 'Closed'],
    ]),
  ),
];

/** What a field names its dictionary by: `SAFETY_DICT.<code>` (a code not declared above does not compile). */
export const SAFETY_DICT = dictCodes(SAFETY_DICTS);

/**
 * Safety (平安乡村, spec §1): the people in charge of each area (责任人), cameras (GB/T 28181 code, place on
 * the map, stream URL, codec, online state) watched on a live video wall whose every opened stream is
 * logged, patrol and incident records (治安巡防), periodic safety summaries (securityOverview, the spec's
 * path), and an overview of incidents and cameras computed from the rows. Joint-guarantee groups
 * (guaranteeGroup) and security charges (securityCharge) moved here from village affairs, keeping their
 * paths, tables and permission codes (seed step safety-v1 moves their menus on installs that had them).
 */

const SERVICE = 'dfem-hope-manage';

/** Rows the demo seed always creates (tenant 000000): generated tests reference them as valid samples. */
export const SAFETY_DEMO = {
  villagerId: '1190000000000000001',
  principalId: '1190000000001600001',
  cameraId: '1190000000001610001',
} as const;

const resource = areaResource(SERVICE, 'safety');

const villagerRef = (name: string, label: Text2): FieldDef =>
  ref(name, label, 'villager', SAFETY_DEMO.villagerId, { required: true });
const villagerRefs = (name: string, label: Text2): FieldDef =>
  refs(name, label, 'villager', SAFETY_DEMO.villagerId);

/**
 * 联保 (guaranteeGroup): a leader household and the member households that answer for each other. Declared
 * by village affairs before this area existed; its path, table and permission code stay as they were.
 */
export const guaranteeGroupResource = resource(
  'guaranteeGroup',
  'hope_guarantee_group',
  'SafetyOutlined',
  L('联保小组', 'Guarantee groups'),
  'guarantee',
  'guarantee_group',
  [
    text('groupName', L('小组名称', 'Group'), 40, { required: true, search: 'like' }),
    villagerRef('leaderId', L('组长', 'Leader')),
    villagerRefs('memberIds', L('成员户', 'Member households')),
    text('area', L('联保区域', 'Area'), 100),
    phone('phone', L('联系电话', 'Phone')),
    remark(),
  ],
);

/** 治安联防 (securityCharge): who answers for an area's patrols, and the households covered (moved likewise). */
export const securityChargeResource = resource(
  'securityCharge',
  'hope_security_charge',
  'LockOutlined',
  L('治安联防', 'Security charges'),
  'security',
  'security_charge',
  [
    villagerRef('leaderId', L('责任人', 'Person in charge')),
    villagerRefs('memberIds', L('联防户', 'Households covered')),
    text('area', L('责任区域', 'Area'), 100, { required: true, search: 'like' }),
    area('patrolDuty', L('巡防职责', 'Patrol duties'), 500),
    phone('phone', L('联系电话', 'Phone')),
    remark(),
  ],
);

/** 平安责任人: who answers for the safety of an area or grid. */
export const securityPrincipalResource = resource(
  'securityPrincipal',
  'hope_security_principal',
  'TeamOutlined',
  L('平安责任人', 'Safety principals'),
  'principal',
  'security_principal',
  [
    text('name', L('姓名', 'Name'), 20, { required: true, search: 'like' }),
    text('gridName', L('责任区域/网格', 'Area or grid'), 60, { required: true, search: 'like' }),
    { ...phone('phone', L('联系电话', 'Phone')), required: true },
    text('duty', L('职务', 'Duty'), 40),
    ref('villagerId', L('关联村民', 'Villager'), 'villager', SAFETY_DEMO.villagerId, { list: false }),
    remark(),
  ],
  { select: { label: 'name', search: ['name', 'gridName'], hint: 'gridName' } },
);

/** Stream kinds of the `camera_stream_kind` dictionary: what plays them in a browser. */
export const STREAM_KIND = { hls: '1', flv: '2', rtsp: '3' } as const;
/** Codecs of the `camera_codec` dictionary. */
export const CAMERA_CODEC = { h264: '1', h265: '2' } as const;

/** 监控摄像头: a camera of the village, its national code, where it is and where its stream is served. */
export const cameraResource = resource(
  'camera',
  'hope_camera',
  'CameraOutlined',
  L('监控摄像头', 'Cameras'),
  'camera',
  'camera',
  [
    text('name', L('摄像头名称', 'Name'), 60, { required: true, search: 'like' }),
    {
      name: 'deviceId',
      label: L('国标编码', 'GB/T 28181 code'),
      type: 'gbDeviceId',
      required: true,
      search: 'equal',
      example: '43010000001320000001',
    },
    text('place', L('安装位置', 'Place'), 100, { search: 'like' }),
    { name: 'location', label: L('地图坐标', 'Map point'), type: 'geoPoint', list: false },
    {
      name: 'streamUrl',
      label: L('视频流地址', 'Stream URL'),
      type: 'videoUrl',
      required: true,
      span: 24,
      list: false,
      example: 'https://video.example.com/live/1.m3u8',
    },
    dict('streamKind', L('流类型', 'Stream kind'), SAFETY_DICT.camera_stream_kind, {
      required: true,
      search: 'equal',
    }),
    dict('codec', L('视频编码', 'Codec'), SAFETY_DICT.camera_codec, { required: true }),
    { name: 'online', label: L('在线', 'Online'), type: 'switch', default: 1, search: 'equal' },
    ref('principalId', L('责任人', 'Principal'), 'securityPrincipal', SAFETY_DEMO.principalId, {
      search: undefined,
    }),
    remark(),
  ],
  {
    unique: ['deviceId'],
    select: { label: 'name', search: ['name', 'place'], hint: 'place' },
  },
);

/** 治安巡防: a patrol finding or an incident, where and when, its kind, who handles it and how far. */
export const securityIncidentResource = resource(
  'securityIncident',
  'hope_security_incident',
  'NotificationOutlined',
  L('治安巡防', 'Patrols and incidents'),
  'incident',
  'security_incident',
  [
    {
      name: 'occurredAt',
      notAfterToday: true,
      label: L('发生时间', 'Occurred at'),
      type: 'datetime',
      required: true,
    },
    text('place', L('地点', 'Place'), 100, { required: true, search: 'like' }),
    dict('kind', L('事件类型', 'Kind'), SAFETY_DICT.security_incident_kind, {
      required: true,
      search: 'equal',
    }),
    area('description', L('情况描述', 'Description'), 2000, { required: true }),
    ref('handlerId', L('处理人', 'Handler'), 'securityPrincipal', SAFETY_DEMO.principalId),
    dict('state', L('处理状态', 'Status'), SAFETY_DICT.security_incident_status, {
      required: true,
      search: 'equal',
      default: '1',
    }),
    ref('cameraId', L('关联摄像头', 'Camera'), 'camera', SAFETY_DEMO.cameraId, {
      list: false,
      search: undefined,
    }),
    area('result', L('处理结果', 'Outcome'), 1000),
  ],
  { defaultSort: { field: 'occurredAt', desc: true } },
);

/**
 * 平安概况 (securityOverview, the spec's path): a periodic safety summary; its incident counts are the
 * records of 治安巡防 within the period, counted by the server when the summary is saved.
 */
export const securityOverviewResource = resource(
  'securityOverview',
  'hope_security_overview',
  'FileTextOutlined',
  L('平安概况', 'Safety summaries'),
  'summary',
  'security_overview',
  [
    text('title', L('标题', 'Title'), 60, { required: true, search: 'like' }),
    { name: 'period', label: L('统计期间', 'Period'), type: 'dateRange', required: true },
    {
      name: 'incidents',
      label: L('事件数', 'Incidents'),
      type: 'int',
      min: 0,
      readOnly: true,
      form: false,
    },
    {
      name: 'closedIncidents',
      label: L('已办结', 'Closed'),
      type: 'int',
      min: 0,
      readOnly: true,
      form: false,
    },
    area('summary', L('平安形势', 'Summary'), 2000),
    remark(),
  ],
);

/**
 * 视频查看记录: who watched which camera's stream when, written by the server each time a tile of the video
 * wall starts playing a stream (`camera/watch`, sent on the video's first `playing`: a stream that never
 * played was not watched); a log, listed and viewed, never added, edited or removed.
 */
export const cameraWatchLogResource = resource(
  'cameraWatchLog',
  'hope_camera_watch_log',
  'FileSearchOutlined',
  L('视频查看记录', 'Camera watch log'),
  'watch-log',
  'camera_watch_log',
  [
    ref('cameraId', L('摄像头', 'Camera'), 'camera', SAFETY_DEMO.cameraId, { required: true }),
    text('userName', L('查看人', 'Watched by'), 40, { required: true, search: 'like' }),
    {
      name: 'watchedAt',
      notAfterToday: true,
      label: L('查看时间', 'Watched at'),
      type: 'datetime',
      required: true,
    },
  ],
  { readOnly: true, defaultSort: { field: 'watchedAt', desc: true } },
);

/** 平安概览: cameras, principals and incidents (GET securityOverview/statistics). */
export const SAFETY_OVERVIEW: OverviewDecl = {
  code: 'safety_overview',
  label: L('平安概览', 'Safety overview'),
  path: '/safety/overview',
  icon: 'DashboardOutlined',
  title: L('平安概览', 'Safety overview'),
  sources: {
    safety: { url: '/api/dfem-hope-manage/securityOverview/statistics', watch: 'securityIncident' },
  },
  figures: [
    { label: L('摄像头总数', 'Cameras'), value: (a) => safety(a)?.cameras },
    { label: L('在线摄像头', 'Cameras online'), value: (a) => safety(a)?.camerasOnline },
    {
      label: L('在线率', 'Online rate'),
      value: (a) => percentOf(safety(a)?.camerasOnline, safety(a)?.cameras),
    },
    { label: L('平安责任人', 'Safety principals'), value: (a) => safety(a)?.principals },
    { label: L('治安事件', 'Incidents'), value: (a) => safety(a)?.incidents },
    { label: L('未办结事件', 'Open incidents'), value: (a) => safety(a)?.openIncidents },
  ],
  charts: [
    {
      kind: 'pie',
      title: L('摄像头在线情况', 'Cameras online and offline'),
      items: (a) => safety(a)?.byOnline ?? [],
      colors: ['#52c41a', '#bfbfbf'],
    },
    {
      kind: 'bar',
      title: L('事件类型分布', 'Incidents by kind'),
      series: L('事件数', 'Incidents'),
      items: (a) => safety(a)?.byKind ?? [],
      color: '#fa8c16',
    },
    {
      kind: 'bar',
      title: L('近12个月事件数', 'Incidents in the last 12 months'),
      series: L('事件数', 'Incidents'),
      items: (a) => safety(a)?.byMonth ?? [],
      color: '#1677ff',
      wide: true,
    },
  ],
};
const safety = (a: OverviewAnswers) => a.safety as SafetyFigures | undefined;
export const SAFETY_WALL = {
  // `camera` + the endpoints' suffix `_wall`: the wall's menu code is what its endpoints ask for
  code: 'camera_wall',
  label: L('实时视频', 'Live video'),
  path: '/safety/wall',
  icon: 'VideoCameraOutlined',
} as const;

/** 平安乡村: the menu folder and its screens, in menu order. */
export const SAFETY_AREA = defineArea({
  code: 'safety',
  label: L('平安乡村', 'Safety'),
  icon: 'SafetyOutlined',
  overview: SAFETY_OVERVIEW,
  screens: [SAFETY_WALL],
  resources: [
    guaranteeGroupResource,
    securityChargeResource,
    securityPrincipalResource,
    cameraResource,
    securityIncidentResource,
    securityOverviewResource,
    cameraWatchLogResource,
  ],
  dicts: SAFETY_DICTS,
});

export interface SafetyCount {
  key: string;
  name: string;
  value: number;
}
/** Figures of the safety overview (GET securityOverview/statistics). */
export interface SafetyFigures {
  cameras: number;
  camerasOnline: number;
  principals: number;
  incidents: number;
  openIncidents: number;
  /** cameras online and offline */
  byOnline: SafetyCount[];
  byKind: SafetyCount[];
  /** the last 12 months, oldest first: key YYYY-MM */
  byMonth: SafetyCount[];
}

/** A camera as the video wall gets it (GET camera/wall). */
export interface WallCamera {
  id: string;
  name: string;
  place: string | null;
  streamUrl: string;
  streamKind: string;
  codec: string;
  online: number;
}

/**
 * How a browser can play a stream: by the camera's stream kind, else by its URL (http(s), or a path on the
 * console's own server: the demo streams).
 */
export function streamPlayer(url: string, kind?: string | null): 'hls' | 'flv' | 'none' {
  const lower = url.toLowerCase();
  if (!/^https?:\/\//.test(lower) && !/^\/(?![/\\])/.test(lower)) return 'none';
  if (kind === STREAM_KIND.rtsp) return 'none';
  if (kind === STREAM_KIND.flv) return 'flv';
  if (kind === STREAM_KIND.hls) return 'hls';
  const path = lower.split(/[?#]/)[0];
  if (path.endsWith('.flv')) return 'flv';
  if (path.endsWith('.m3u8')) return 'hls';
  return 'none';
}
