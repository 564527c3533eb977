import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

/**
 * Every call of spec §7 (endpoints.tsv) in the areas built so far must be answered by a route. The list is
 * read from ../shared/spec beside the repository when present (the source of truth), else from docs/.
 */
const shared = fileURLToPath(new URL('../../../../shared/spec/endpoints.tsv', import.meta.url));
const copy = fileURLToPath(new URL('../../../docs/endpoints.tsv', import.meta.url));
const lines = readFileSync(existsSync(shared) ? shared : copy, 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => l.split('\t'))
  .map(([area, method, path, notes]) => ({ area, method, path, notes: notes ?? '' }));

/** Areas (and, for desk, the lines) whose issues are built; grows with each area. */
const BUILT = (e: { area: string; path: string }) =>
  ['auth', 'user', 'system', 'log', 'desk', 'flow'].includes(e.area) ||
  VILLAGE(e) ||
  TELEMETRY(e) ||
  POWER(e) ||
  WECHAT_MP(e) ||
  RESOURCE_OSS(e) ||
  RESOURCE_ATTACH(e) ||
  e.area === 'develop';

/** Resource services (dfem-resource), slice by slice: object storage is built; SMS and attachments next. */
const RESOURCE_OSS = (e: { area: string; path: string }) =>
  e.area === 'resource' && e.path.startsWith('/api/dfem-resource/oss/');
/** Attachments (dfem-resource/attach): list, detail, remove, submit. */
const RESOURCE_ATTACH = (e: { area: string; path: string }) =>
  e.area === 'resource' && e.path.startsWith('/api/dfem-resource/attach/');

/** The public account (dfem-hope-wx): every line of the service. */
const WECHAT_MP = (e: { area: string }) => e.area === 'hope-wx';

/** PV stations (dfem-hope-power): every line of the service. */
const POWER = (e: { area: string }) => e.area === 'hope-power';

/** The telemetry core's calls: devices, the monitoring pages, the harmful-organism figures, slope devices. */
const TELEMETRY_PREFIXES = [
  '/api/dfem-hope-manage/smartPlant/deviceManage/',
  '/api/dfem-hope-manage/agricultureWeather/',
  '/api/dfem-hope-manage/soil/',
  '/api/dfem-hope-manage/pest/',
  '/api/dfem-hope-manage/slopeDetection/',
  '/api/dfem-hope-manage/common/index/today/harmful',
  '/api/dfem-hope-manage/common/index/other/harmful',
  '/api/dfem-hope-slope/slopeDevice/',
];
const TELEMETRY = (e: { path: string }) => TELEMETRY_PREFIXES.some((p) => e.path.startsWith(p));

/** Village affairs (dfem-hope-manage): its resources' lines, not the points mall's villager/wx/points. */
const VILLAGE_PATHS = new Set([
  'villager',
  'villagerToParty',
  'villagerIncome',
  'villagerToCadre',
  'villagerToOrg',
  'villagerToGroup',
  'filingRecords',
  'evaluationTask',
  'villageAffairsDuty',
  'guaranteeGroup',
  'duplexCharge',
  'securityCharge',
  'villageAffairsOverview',
  'scoreRank',
  'scoreRankRule',
  'visitingRecords',
  'visitingReception',
  // evaluation (评比)
  'evaluationRuleCategory',
  'evaluationRule',
  'evaluationProject',
  'evaluationList',
  // poverty relief (防返贫)
  'preventionPoverty',
  'supportingMeasures',
  'benefitingPolicy',
  'resettlementSite',
  // assistance and care (帮扶关爱)
  'assistanceProject',
  'assistanceUnit',
  'assistanceSystem',
  'information',
  // safety (平安): guaranteeGroup and securityCharge are listed above, with village affairs
  'securityOverview',
  'camera',
  // smart agriculture (智慧农业): smartPlant's plots, plans and records (devices are the telemetry core's,
  // above), seedlings, cooperatives, industries, and two of common/index's figures
  'smartPlant',
  'seedling',
  'cooperation',
  'industry',
  'industryOutputValue',
  'industryBreeding',
  // the points mall (积分超市): points/goods, rule, record; exchanges
  'points',
  'exchangeList',
  // tourism (乡村旅游) and the public account's banners and QR codes
  'tourismPresets',
  'carousel',
  'qrcode',
]);
/** calls built one by one among their siblings: two of common/index's figures, one of wx/ */
const SINGLE_CALLS = new Set([
  '/api/dfem-hope-manage/common/index/year/cer',
  '/api/dfem-hope-manage/common/index/income/per',
  // the mini program's one call built so far: a villager's points
  '/api/dfem-hope-manage/villager/wx/points',
]);
const VILLAGE = (e: { area: string; path: string }) => {
  const m = /^\/api\/dfem-hope-manage\/([^/]+)\/(.+)$/.exec(e.path);
  if (e.area !== 'hope-manage') return false;
  if (SINGLE_CALLS.has(e.path)) return true;
  return !!m && VILLAGE_PATHS.has(m[1]) && !m[2].startsWith('wx/');
};

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('spec §7 calls', () => {
  const built = lines.filter(BUILT);
  it('the list is not empty', () => {
    expect(built.length).toBeGreaterThan(100);
  });
  it.each(built.map((e) => [`${e.method} ${e.path}`, e] as const))('%s is answered', (_name, e) => {
    // hasRoute compares route patterns: the spec's `{id}` is the route's `:id`
    const url = e.path.replace(/\{([^}]+)\}/g, ':$1');
    expect(s.app.hasRoute({ method: e.method as 'GET', url })).toBe(true);
  });
});
