import { gradeOfScore, idCardCheckDigit, maskForNotice, VILLAGE_DEMO } from '@smart/contracts';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluationTask } from '../src/modules/village/tables';
import { fixTaskGrades } from '../src/modules/village/task-grades';
import { grantCodes, makeRole, readSheet, serviceCalls, signedInUser } from './fixtures';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * Issue 32's finishes of how lists show values, on the server: a task's grade follows from its score (one
 * rule, the seed agrees), a ranking's shared places are marked (standard competition ranking), and a list
 * answers ID numbers and phones masked while the detail and the export (its own code) answer them whole.
 */
let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = (await signIn(s)).access_token;
});
afterAll(() => s.close());

const { get, post } = serviceCalls(
  () => s,
  '/api/dfem-hope-manage',
  () => token,
);

const idFor = (n: number) => {
  const first = `43018119900101${String(100 + n).padStart(3, '0')}`;
  return first + idCardCheckDigit(first);
};

describe('任务考核: the grade follows from the score', () => {
  it('the rule: 90 优秀, 75 称职, 60 基本称职, below 不称职, no score no grade', () => {
    expect([97, 90, 89.5, 85, 75, 74, 60, 59, 0].map(gradeOfScore)).toEqual([
      '1',
      '1',
      '2',
      '2',
      '2',
      '3',
      '3',
      '4',
      '4',
    ]);
    expect(gradeOfScore(null)).toBeNull();
    expect(gradeOfScore('')).toBeNull();
  });

  it('every seeded task’s grade is its score’s', async () => {
    const rows = await s.database.db
      .select({ score: evaluationTask.score, grade: evaluationTask.grade })
      .from(evaluationTask)
      .where(and(eq(evaluationTask.isDeleted, 0), isNotNull(evaluationTask.score)));
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.grade, String(r.score)).toBe(gradeOfScore(r.score));
  });

  it('a saved score writes its grade, whatever grade the body says; a new score rewrites it', async () => {
    const body = {
      title: '等次测试',
      assigneeId: VILLAGE_DEMO.villagerId,
      taskStatus: '3',
      score: 97,
      grade: '2',
    };
    const made = await post('/evaluationTask/submit', body);
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().data.id;
    expect(made.json().data.grade).toBe('1');
    const edited = await post('/evaluationTask/submit', { ...body, id, score: 85, grade: '1' });
    expect(edited.statusCode, edited.body).toBe(200);
    const detail = (await get(`/evaluationTask/detail?id=${id}`)).json().data;
    expect(detail).toMatchObject({ grade: '2', gradeName: '称职' });
    const cleared = await post('/evaluationTask/submit', { ...body, id, score: null });
    expect(cleared.json().data.grade).toBeNull();
  });

  it('a task stored before the rule, its grade contradicting its score, is mended by the seed step', async () => {
    const made = await post('/evaluationTask/submit', {
      title: '旧等次',
      assigneeId: VILLAGE_DEMO.villagerId,
      taskStatus: '3',
      score: 62,
    });
    const id = made.json().data.id as string;
    // as an older install kept it: 62 with 优秀
    await s.database.db.update(evaluationTask).set({ grade: '1' }).where(eq(evaluationTask.id, id));
    await fixTaskGrades(s.database.db);
    expect((await get(`/evaluationTask/detail?id=${id}`)).json().data).toMatchObject({ grade: '3' });
  });
});

describe('rankings: shared places are marked 并列', () => {
  it('the village score ranking: equal points share a place, the next skips (1, 1, 3)', async () => {
    const rule = async (points: number) =>
      (await post('/scoreRankRule/submit', { category: '1', ruleName: `并列${points}`, points })).json().data
        .id as string;
    const ten = await rule(10);
    const five = await rule(5);
    for (const [i, ruleId] of [ten, ten, five].entries()) {
      const v = await post('/villager/submit', {
        name: `并列户${i}`,
        sex: '1',
        householdNo: `TIE-${i}`,
        relation: '1',
        villageGroup: '1',
      });
      expect(v.statusCode, v.body).toBe(200);
      const r = await post('/scoreRank/submit', {
        villagerId: v.json().data.id,
        ruleId,
        recordDate: '2019-03-01',
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    const rows = (await get('/scoreRank/ranking?year=2019&size=10')).json().data.records;
    expect(
      rows.map((r: { householdNo: string; rank: number; tied: boolean }) => [r.householdNo, r.rank, r.tied]),
    ).toEqual([
      ['TIE-0', 1, true],
      ['TIE-1', 1, true],
      ['TIE-2', 3, false],
    ]);
  });
});

describe('lists mask ID numbers and phones; the detail and the export do not', () => {
  it('a villager’s list row is masked, its detail whole, its export whole for a holder of the export code', async () => {
    const idCard = idFor(7);
    const made = await post('/villager/submit', {
      name: '脱敏测试',
      sex: '1',
      householdNo: 'MASK-1',
      relation: '1',
      villageGroup: '1',
      idCard,
      phone: '13812345678',
    });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().data.id;
    const [row] = (await get(`/villager/page?name=${encodeURIComponent('脱敏测试')}`)).json().data.records;
    expect(row.idCard).toBe(`${idCard.slice(0, 6)}********${idCard.slice(-4)}`);
    expect(row.idCard).toBe(maskForNotice('idcard', idCard));
    expect(row.phone).toBe('138****5678');
    // the whole number is nowhere in the list's answer
    const body = (await get('/villager/page?size=200')).body;
    expect(body).not.toContain(idCard);
    expect(body).not.toContain('13812345678');
    // the view (查看) and the edit dialog read the detail: whole
    const detail = (await get(`/villager/detail?id=${id}`)).json().data;
    expect(detail).toMatchObject({ idCard, phone: '13812345678' });
    // a search by the whole number still finds it (filters run on the stored value)
    const found = (await get(`/villager/page?idCard=${idCard}`)).json().data.records;
    expect(found.map((r: { id: string }) => r.id)).toContain(id);

    // the export: whole, for a holder of villager_export
    const sheet = await readSheet(
      (await get(`/villager/excel/export?name=${encodeURIComponent('脱敏测试')}`)).rawPayload,
    );
    expect(sheet.flat()).toContain(idCard);
    // someone who may list villagers but not export them gets no export at all (the server's 403)
    const viewer = await makeRole(s.database.db, '000000', 'villagerViewer', '村民查看');
    await grantCodes(s.database.db, viewer, ['villager', 'villager_view']);
    const limited = (await signedInUser(s, 'maskViewer', [viewer])).token;
    const listed = (await get(`/villager/page?name=${encodeURIComponent('脱敏测试')}`, limited)).json().data
      .records[0];
    expect(listed.idCard).toBe(maskForNotice('idcard', idCard));
    expect((await get('/villager/excel/export', limited)).statusCode).toBe(403);
  });

  it('the users’ list masks the mobile too; the detail answers it whole', async () => {
    const page = await s.app.inject({
      method: 'GET',
      url: '/api/dfem-user/page?size=200',
      headers: auth(token),
    });
    const withPhone = (page.json().data.records as { id: string; phone?: string }[]).filter((u) => u.phone);
    expect(withPhone.length).toBeGreaterThan(0);
    for (const u of withPhone) expect(u.phone).toContain('****');
    const detail = await s.app.inject({
      method: 'GET',
      url: `/api/dfem-user/detail?id=${withPhone[0].id}`,
      headers: auth(token),
    });
    expect(detail.json().data.phone).not.toContain('*');
  });
});
