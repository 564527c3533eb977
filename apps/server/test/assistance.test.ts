import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ASSISTANCE_DEMO, type AssistanceOverview } from '@smart/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistanceProject, assistanceUnit, careVideo, information } from '../src/modules/assistance/tables';
import { areaServer, grantCodes, makeRole, serviceCalls, signedInUser, uploadFile } from './fixtures';
import { auth, type TestServer } from './harness';

/**
 * Assistance and care: a project's funds and period rules, news cleaned before it is stored, video uploads
 * checked by content and size and played back by range, the overview computed from the rows (tenant's own).
 */
let s: TestServer;
let token: string;
let other: string;
// a video limit of 1 MB, so the limit can be passed in a test
beforeAll(async () => {
  ({ s, token, other } = await areaServer(['200021', '帮扶他村', 'assistOther'], { VIDEO_MAX_MB: '1' }));
});
afterAll(() => s.close());

const API = '/api/dfem-hope-manage';
const { get, post } = serviceCalls(
  () => s,
  API,
  () => token,
);

const project = (over: Record<string, unknown> = {}) => ({
  name: '测试项目',
  unitId: ASSISTANCE_DEMO.unitId,
  category: '1',
  budget: '1000.00',
  spend: '200.00',
  period: '2026-01-01,2026-12-31',
  progress: 20,
  projectStatus: '2',
  ...over,
});

async function projectId(name: string) {
  const [row] = await s.database.db
    .select({ id: assistanceProject.id })
    .from(assistanceProject)
    .where(and(eq(assistanceProject.name, name), eq(assistanceProject.isDeleted, 0)));
  return String(row.id);
}

describe('projects', () => {
  it('a spend over the budget is refused naming spend, in either language; equal is fine', async () => {
    const res = await post('/assistanceProject/submit', project({ name: '超支项目', spend: '1000.01' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ data: { field: 'spend' }, msg: '已支出不能超过预算资金' });
    const en = await post(
      '/assistanceProject/submit',
      project({ name: '超支项目', spend: '1000.01' }),
      token,
      'en',
    );
    expect(en.json().msg).toBe('The amount spent cannot exceed the budget');
    const okRes = await post('/assistanceProject/submit', project({ name: '超支项目', spend: '1000.00' }));
    expect(okRes.statusCode, okRes.body).toBe(200);
  });

  it('an update is held to the rule against the row’s unchanged budget', async () => {
    expect((await post('/assistanceProject/submit', project({ name: '预算项目' }))).statusCode).toBe(200);
    const id = await projectId('预算项目');
    const res = await post('/assistanceProject/submit', { id, spend: '5000.00' });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.field).toBe('spend');
    // lowering the budget under what was spent is refused too
    expect((await post('/assistanceProject/submit', { id, budget: '100.00' })).statusCode).toBe(400);
    expect(
      (await post('/assistanceProject/submit', { id, budget: '5000.00', spend: '5000.00' })).statusCode,
    ).toBe(200);
  });

  it('a period that ends before it starts and a progress past 100 are refused', async () => {
    const period = await post(
      '/assistanceProject/submit',
      project({ name: '周期项目', period: '2026-12-31,2026-01-01' }),
    );
    expect(period.statusCode).toBe(400);
    expect(period.json()).toMatchObject({
      data: { field: 'period' },
      msg: '项目周期的开始日期不能晚于结束日期',
    });
    const progress = await post('/assistanceProject/submit', project({ name: '进度项目', progress: 101 }));
    expect(progress.statusCode).toBe(400);
    expect(progress.json().data.field).toBe('progress');
  });

  it('another tenant’s unit cannot be named', async () => {
    const res = await post('/assistanceProject/submit', project({ name: '他村项目' }), other);
    expect(res.statusCode).toBe(400);
    expect(res.json().data.field).toBe('unitId');
  });
});

describe('assistance system', () => {
  it('documents are files uploaded through the storage layer, checked by content', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const up = await uploadFile(
      s,
      token,
      `${API}/file/attach?resource=assistanceSystem&field=documents`,
      pdf,
      '管理办法.pdf',
    );
    expect(up.statusCode, up.body).toBe(200);
    const { url } = up.json().data;
    const saved = await post('/assistanceSystem/submit', {
      title: '帮扶资金管理办法',
      category: '2',
      documents: url,
      effectiveDate: '2026-02-01',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const list = (await get('/assistanceSystem/page?current=1&size=10&title=帮扶资金管理办法')).json().data;
    expect(list.records[0].documents).toBe(url);
    expect((await s.app.inject({ method: 'GET', url })).rawPayload.equals(pdf)).toBe(true);
    // a program renamed .pdf never becomes a document
    const exe = await uploadFile(
      s,
      token,
      `${API}/file/attach?resource=assistanceSystem&field=documents`,
      Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300)]),
      'rules.pdf',
    );
    expect(exe.statusCode).toBe(400);
    const forged = await post('/assistanceSystem/submit', {
      title: '伪造文件',
      category: '1',
      documents: 'https://evil.example/rules.pdf',
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().data.field).toBe('documents');
  });
});

describe('news', () => {
  it('rich text is cleaned before it is stored: scripts and handlers are gone, formatting stays', async () => {
    const res = await post('/information/submit', {
      title: '清洗测试',
      category: '1',
      content:
        '<p onclick="steal()">你好<strong>加粗</strong></p><script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">链接</a>',
      publishStatus: '1',
      publishTime: '2026-03-01 09:00:00',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await s.database.db
      .select({ id: information.id, content: information.content })
      .from(information)
      .where(eq(information.title, '清洗测试'));
    expect(row.content).toContain('<strong>加粗</strong>');
    expect(row.content).not.toMatch(/script|onerror|onclick|javascript:|alert/i);
    const detail = (await get(`/information/detail?id=${row.id}`)).json().data;
    expect(detail.content).toBe(row.content);
  });

  it('news published without a time is published now; hidden news keeps none', async () => {
    const news = (title: string, publishStatus: string) =>
      post('/information/submit', { title, category: '1', content: '<p>内容</p>', publishStatus });
    expect((await news('现在发布', '1')).statusCode).toBe(200);
    expect((await news('暂不发布', '2')).statusCode).toBe(200);
    const list = (await get('/information/page?current=1&size=50')).json().data.records as {
      title: string;
      publishTime: string | null;
    }[];
    const now = list.find((r) => r.title === '现在发布')!;
    expect(now.publishTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(
      Math.abs(Date.parse(`${String(now.publishTime).replace(' ', 'T')}+08:00`) - Date.now()),
    ).toBeLessThan(120_000);
    expect(list.find((r) => r.title === '暂不发布')!.publishTime).toBeNull();
  });
});

describe('videos', () => {
  const dir = mkdtempSync(join(tmpdir(), 'assist-video-'));
  const mp4Path = join(dir, 'clip.mp4');
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=1:size=160x120:rate=10',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    mp4Path,
  ]);
  const mp4 = readFileSync(mp4Path);
  const upload = (buf: Buffer, name: string) =>
    uploadFile(s, token, `${API}/file/video?resource=careVideo&field=videoFile`, buf, name);
  const storedVideos = () => {
    try {
      return readdirSync(join(s.config.DATA_DIR, 'uploads', 'video')).length;
    } catch {
      return 0;
    }
  };

  it('an MP4 is stored, named in a care video, and played back whole or by range', async () => {
    const res = await upload(mp4, '关爱.mp4');
    expect(res.statusCode, res.body).toBe(200);
    const { url, originalName } = res.json().data;
    expect(url).toMatch(/^\/api\/dfem-hope-manage\/file\/video\/[0-9a-f-]{36}\.mp4$/);
    expect(originalName).toBe('关爱.mp4');
    const saved = await post('/careVideo/submit', { title: '上传的视频', category: '1', videoFile: url });
    expect(saved.statusCode, saved.body).toBe(200);
    const whole = await s.app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(mp4)).toBe(true);
    const part = await s.app.inject({ method: 'GET', url, headers: { range: 'bytes=4-11' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 4-11/${mp4.length}`);
    expect(part.rawPayload.toString('latin1')).toBe(mp4.subarray(4, 12).toString('latin1'));
    const tail = await s.app.inject({ method: 'GET', url, headers: { range: 'bytes=-10' } });
    expect(tail.rawPayload.equals(mp4.subarray(mp4.length - 10))).toBe(true);
    const past = await s.app.inject({ method: 'GET', url, headers: { range: `bytes=${mp4.length}-` } });
    expect(past.statusCode).toBe(416);
  });

  it('a WebM header is recognised', async () => {
    // EBML header: DocType (0x4282) "webm"
    const webm = Buffer.concat([
      Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]),
      Buffer.from('webm'),
      Buffer.alloc(100),
    ]);
    const res = await upload(webm, 'clip.webm');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.url).toMatch(/\.webm$/);
  });

  it('a program, a text or a QuickTime movie renamed .mp4, and an empty form, are refused with nothing stored', async () => {
    const before = storedVideos();
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(400)]);
    const txt = Buffer.from(
      '这不是视频 not a video at all, just some text that is long enough to be read'.repeat(3),
    );
    const mov = Buffer.concat([Buffer.from([0, 0, 0, 20]), Buffer.from('ftypqt  '), Buffer.alloc(200)]);
    for (const [buf, name] of [
      [exe, 'setup.mp4'],
      [txt, 'notes.mp4'],
      [mov, 'clip.mp4'],
    ] as const) {
      const res = await upload(buf, name);
      expect(res.statusCode, name).toBe(400);
      expect(res.json()).toMatchObject({ data: { field: 'file' }, msg: '只能上传 MP4 或 WebM 视频' });
    }
    const empty = await s.app.inject({
      method: 'POST',
      url: `${API}/file/video?resource=careVideo&field=videoFile`,
      headers: auth(token),
      payload: new FormData(),
    });
    expect(empty.statusCode).toBe(400);
    // nobody signed in stores nothing
    const anon = await s.app.inject({ method: 'POST', url: `${API}/file/video`, payload: new FormData() });
    expect(anon.statusCode).toBe(401);
    expect(storedVideos()).toBe(before);
  });

  it('a large text renamed .mp4 is refused for its kind, and the server goes on answering', async () => {
    const res = await upload(Buffer.alloc(1024 * 1024 + 100, 'a'), 'long.mp4');
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('只能上传 MP4 或 WebM 视频');
    expect((await get('/careVideo/page?current=1&size=1')).statusCode).toBe(200);
  });

  it('a video past the size limit is refused and nothing of it is left behind', async () => {
    const before = storedVideos();
    const big = Buffer.concat([mp4.subarray(0, 64), Buffer.alloc(1024 * 1024 + 10)]);
    const res = await upload(big, 'big.mp4');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ data: { field: 'file' }, msg: '视频大小不能超过 1MB' });
    expect(storedVideos()).toBe(before);
  });

  it('a care video needs a file or an address; the field holds only a path the server issued', async () => {
    const none = await post('/careVideo/submit', { title: '无源视频', category: '1' });
    expect(none.statusCode).toBe(400);
    expect(none.json().data.field).toBe('videoFile');
    const forged = await post('/careVideo/submit', {
      title: '伪造视频',
      category: '1',
      videoFile: '/api/dfem-hope-manage/file/attach/00000000-0000-4000-8000-000000000001.pdf',
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().data.field).toBe('videoFile');
    const byUrl = await post('/careVideo/submit', {
      title: '地址视频',
      category: '2',
      videoUrl: 'https://video.example.com/care/a.mp4',
    });
    expect(byUrl.statusCode, byUrl.body).toBe(200);
  });
});

describe('overview', () => {
  it('counts and sums what the rows say, within the tenant, labelled in the request’s language', async () => {
    const db = s.database.db;
    const live = (
      t: typeof assistanceUnit | typeof assistanceProject | typeof information | typeof careVideo,
    ) => and(eq(t.tenantId, '000000'), eq(t.isDeleted, 0));
    // another tenant's rows are not counted
    const unit = await post('/assistanceUnit/submit', { name: '他村工作队', kind: '1' }, other);
    expect(unit.statusCode, unit.body).toBe(200);
    const [foreignUnit] = await db
      .select({ id: assistanceUnit.id })
      .from(assistanceUnit)
      .where(eq(assistanceUnit.tenantId, '200021'));
    const foreignProject = await post(
      '/assistanceProject/submit',
      project({ name: '他村项目', unitId: String(foreignUnit.id), budget: '777.00', spend: '77.00' }),
      other,
    );
    expect(foreignProject.statusCode, foreignProject.body).toBe(200);

    const [units] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(assistanceUnit)
      .where(live(assistanceUnit));
    const [totals] = await db
      .select({
        n: sql<number>`count(*)::int`,
        budget: sql<string>`coalesce(sum(${assistanceProject.budget}), 0)`,
        spend: sql<string>`coalesce(sum(${assistanceProject.spend}), 0)`,
      })
      .from(assistanceProject)
      .where(live(assistanceProject));
    const [news] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(information)
      .where(and(live(information), eq(information.publishStatus, '1')));
    const [videos] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(careVideo)
      .where(live(careVideo));
    const res = await get('/assistanceOverview/statistics');
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json().data as AssistanceOverview;
    expect(o.units).toBe(Number(units.n));
    expect(o.units).toBeGreaterThanOrEqual(3);
    expect(o.projects).toBe(Number(totals.n));
    expect(o.budget).toBe(Number(totals.budget));
    expect(o.spend).toBe(Number(totals.spend));
    expect(o.publishedNews).toBe(Number(news.n));
    expect(o.publishedNews).toBeGreaterThan(0);
    expect(o.videos).toBe(Number(videos.n));
    const sum = (xs: number[]) => Math.round(xs.reduce((a, x) => a + x, 0) * 100) / 100;
    expect(sum(o.byUnit.map((u) => u.budget))).toBe(o.budget);
    expect(sum(o.byUnit.map((u) => u.spend))).toBe(o.spend);
    expect(sum(o.byUnit.map((u) => u.projects))).toBe(o.projects);
    expect(sum(o.byStatus.map((x) => x.value))).toBe(o.projects);
    expect(o.byUnit.map((u) => u.name)).toContain('青山村驻村工作队');
    expect(o.byUnit.map((u) => u.name)).not.toContain('他村工作队');
    expect(o.byStatus.map((x) => x.name)).toContain('实施中');
    const en = (await get('/assistanceOverview/statistics', token, 'en')).json().data as AssistanceOverview;
    expect(en.byStatus.map((x) => x.name)).toContain('Under way');
    // the other tenant's overview is its own rows only
    const foreign = (await get('/assistanceOverview/statistics', other)).json().data as AssistanceOverview;
    expect(foreign).toMatchObject({
      units: 1,
      projects: 1,
      budget: 777,
      spend: 77,
      publishedNews: 0,
      videos: 0,
    });
    expect(foreign.byUnit).toEqual([
      { key: String(foreignUnit.id), name: '他村工作队', budget: 777, spend: 77, projects: 1 },
    ]);
  });

  it('is refused without the overview code', async () => {
    const clerk = await makeRole(s.database.db, '000000', 'assistClerk', '帮扶文员');
    await grantCodes(s.database.db, clerk, ['assistance_project']);
    const limited = (await signedInUser(s, 'assistNoOverview', [clerk])).token;
    expect((await get('/assistanceOverview/statistics', limited)).statusCode).toBe(403);
    expect((await get('/assistanceProject/page', limited)).statusCode).toBe(200);
  });
});
