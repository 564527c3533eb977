import { competitionRanks, EVALUATION_DEMO, evaluationTotal } from '@smart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCodes, makeRole, makeTenant, readSheet, signedInUser, uploadFile, xlsxOf } from './fixtures';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * Evaluation (评比): a project's weights sum to 100, scores are clamped to their rule's maximum, the stored
 * total is the shared `evaluationTotal`, places are standard competition ranks (1, 1, 3; ties marked), a published project is frozen until reopened
 * (the reopening recorded), and another tenant reaches none of it.
 */
let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = (await signIn(s)).access_token;
});
afterAll(() => s.close());

const API = '/api/dfem-hope-manage';
const get = (url: string, tk = token) =>
  s.app.inject({ method: 'GET', url: `${API}${url}`, headers: auth(tk) });
const post = (url: string, payload?: object, tk = token) =>
  s.app.inject({ method: 'POST', url: `${API}${url}`, headers: auth(tk), payload });
const en = { 'accept-language': 'en' };

let n = 0;
async function rule(maxScore: number, weight = 10) {
  const res = await post('/evaluationRule/submit', {
    categoryId: EVALUATION_DEMO.categoryId,
    name: `测试规则${++n}`,
    weight,
    maxScore,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
}

async function project(weights: { ruleId: string; weight: number }[]) {
  const res = await post('/evaluationProject/submit', {
    name: `测试项目${++n}`,
    startDate: '2026-03-01',
    endDate: '2026-06-30',
    ruleWeights: JSON.stringify(weights),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
}

async function entry(projectId: string, subjectName: string) {
  const res = await post('/evaluationList/submit', { projectId, subjectName, subjectType: '1' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
}

describe('project weights', () => {
  it('weights that do not sum to 100 are a 400 naming ruleWeights, in both languages, nothing written', async () => {
    const a = await rule(10);
    const b = await rule(20);
    const body = {
      name: '权重不足的项目',
      startDate: '2026-03-01',
      endDate: '2026-06-30',
      ruleWeights: JSON.stringify([
        { ruleId: a, weight: 60 },
        { ruleId: b, weight: 30 },
      ]),
    };
    const zh = await post('/evaluationProject/submit', body);
    expect(zh.statusCode).toBe(400);
    expect(zh.json().data.field).toBe('ruleWeights');
    expect(zh.json().msg).toContain('权重之和须恰好为 100');
    const english = await s.app.inject({
      method: 'POST',
      url: `${API}/evaluationProject/submit`,
      headers: { ...auth(token), ...en },
      payload: body,
    });
    expect(english.json().msg).toContain('must sum to exactly 100 (they sum to 90)');
    const list = await get(`/evaluationProject/page?name=${encodeURIComponent('权重不足的项目')}`);
    expect(list.json().data.total).toBe(0);
    // exactly 100 is taken
    await project([
      { ruleId: a, weight: 70 },
      { ruleId: b, weight: 30 },
    ]);
  });

  it('an Excel import is held to the same rule: a row whose weights miss 100 is refused, nothing written', async () => {
    const a = await rule(10);
    const b = await rule(10);
    const template = await get('/evaluationProject/excel/template');
    expect(template.statusCode).toBe(200);
    const [headers] = await readSheet(template.rawPayload);
    const row = (name: string, weights: number[]) =>
      headers.map((h: string) =>
        h.includes('项目名称')
          ? name
          : h.includes('开始日期')
            ? '2026-04-01'
            : h.includes('结束日期')
              ? '2026-04-30'
              : h.includes('规则及权重')
                ? JSON.stringify([
                    { ruleId: a, weight: weights[0] },
                    { ruleId: b, weight: weights[1] },
                  ])
                : null,
      );
    const bad = await uploadFile(
      s,
      token,
      `${API}/evaluationProject/excel/import`,
      await xlsxOf(headers, [row('导入项目甲', [50, 50]), row('导入项目乙', [50, 40])]),
    );
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.body).toContain('ruleWeights');
    expect(bad.body).toContain('权重之和须恰好为 100');
    expect(
      (await get(`/evaluationProject/page?name=${encodeURIComponent('导入项目')}`)).json().data.total,
    ).toBe(0);
    const good = await uploadFile(
      s,
      token,
      `${API}/evaluationProject/excel/import`,
      await xlsxOf(headers, [row('导入项目丙', [50, 50])]),
    );
    expect(good.statusCode, good.body).toBe(200);
    const [made] = (await get(`/evaluationProject/page?name=${encodeURIComponent('导入项目丙')}`)).json().data
      .records;
    expect(made.projectStatus).toBe('1');
  });

  it('an end before the start is refused', async () => {
    const a = await rule(10);
    const res = await post('/evaluationProject/submit', {
      name: '日期颠倒',
      startDate: '2026-06-30',
      endDate: '2026-03-01',
      ruleWeights: JSON.stringify([{ ruleId: a, weight: 100 }]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.field).toBe('endDate');
  });
});

describe('scoring', () => {
  it('clamps each score to its rule maximum and stores the shared function total; ties share a place and the next skips', async () => {
    const a = await rule(10);
    const b = await rule(20);
    const weights = [
      { ruleId: a, weight: 60 },
      { ruleId: b, weight: 40 },
    ];
    const p = await project(weights);
    const [x, y, z] = [await entry(p, '一组'), await entry(p, '二组'), await entry(p, '三组')];

    // 15 is past the maximum of 10: stored as 10; -3 as 0
    const scored = await post('/evaluationList/score', { id: x, scores: { [a]: 15, [b]: 12 } });
    expect(scored.statusCode, scored.body).toBe(200);
    const rules = weights.map((w, i) => ({ ...w, maxScore: i === 0 ? 10 : 20 }));
    const expected = evaluationTotal(rules, { [a]: 15, [b]: 12 });
    expect(expected).toBe(84); // 10/10·60 + 12/20·40
    expect(Number(scored.json().data.totalScore)).toBe(expected);
    expect(scored.json().data.rules.map((r: { score: number }) => r.score)).toEqual([10, 12]);

    await post('/evaluationList/score', { id: y, scores: { [a]: 10, [b]: 12 } }); // ties with x
    await post('/evaluationList/score', { id: z, scores: { [a]: -3, [b]: 20 } }); // 0 + 40

    const detail = await post('/evaluationList/detail', { id: z });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data.rules.map((r: { score: number }) => r.score)).toEqual([0, 20]);
    expect(Number(detail.json().data.totalScore)).toBe(40);

    const page = await get(`/evaluationList/page?projectId=${p}&current=1&size=10`);
    const rows = page.json().data.records as {
      id: string;
      totalScore: number;
      rank: number;
      tied: boolean;
    }[];
    expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining([x, y, z]));
    const rankOf = Object.fromEntries(rows.map((r) => [r.id, [r.rank, r.tied]]));
    expect([rankOf[x], rankOf[y], rankOf[z]]).toEqual([
      [1, true],
      [1, true],
      [3, false],
    ]);
    expect(competitionRanks(rows.map((r) => Number(r.totalScore)))).toEqual(
      rows.map((r) => ({ rank: r.rank, tied: r.tied })),
    );
    // the detail (查看, the score dialog) says the same
    expect((await post('/evaluationList/detail', { id: y })).json().data).toMatchObject({
      rank: 1,
      tied: true,
    });
  });

  it('a score for a rule the project does not weigh is a 400 naming scores', async () => {
    const a = await rule(10);
    const stray = await rule(10);
    const p = await project([{ ruleId: a, weight: 100 }]);
    const e = await entry(p, '一组');
    const res = await post('/evaluationList/score', { id: e, scores: { [stray]: 5 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.field).toBe('scores');
  });
});

describe('a rule’s maximum', () => {
  const ruleBody = (id: string, maxScore: number) => ({
    id,
    categoryId: EVALUATION_DEMO.categoryId,
    name: `改分值${id}`,
    weight: 10,
    maxScore,
  });

  it('changed, recomputes the stored totals of the open projects that weigh it', async () => {
    const a = await rule(10);
    const b = await rule(20);
    const p = await project([
      { ruleId: a, weight: 60 },
      { ruleId: b, weight: 40 },
    ]);
    const e = await entry(p, '一组');
    await post('/evaluationList/score', { id: e, scores: { [a]: 5, [b]: 10 } }); // 30 + 20
    expect(Number((await post('/evaluationList/detail', { id: e })).json().data.totalScore)).toBe(50);
    const changed = await post('/evaluationRule/submit', ruleBody(a, 5));
    expect(changed.statusCode, changed.body).toBe(200);
    // 5 of 5 is all of rule a's 60, plus 20
    expect(Number((await post('/evaluationList/detail', { id: e })).json().data.totalScore)).toBe(80);
  });

  it('stays as it is, and the rule stays on record, while a published project weighs it', async () => {
    const a = await rule(10);
    const p = await project([{ ruleId: a, weight: 100 }]);
    const e = await entry(p, '一组');
    await post('/evaluationList/score', { id: e, scores: { [a]: 8 } });
    expect((await post('/evaluationProject/publish', { id: p })).statusCode).toBe(200);
    expect((await post('/evaluationRule/submit', ruleBody(a, 20))).statusCode).toBe(409);
    expect((await post(`/evaluationRule/remove?ids=${a}`)).statusCode).toBe(409);
    expect(Number((await post('/evaluationList/detail', { id: e })).json().data.totalScore)).toBe(80);
  });
});

describe('publishing', () => {
  it('freezes the results until reopened; the reopening is recorded, then scoring is allowed', async () => {
    const a = await rule(10);
    const p = await project([{ ruleId: a, weight: 100 }]);
    const e = await entry(p, '一组');
    expect((await post('/evaluationList/score', { id: e, scores: { [a]: 8 } })).statusCode).toBe(200);

    expect((await post('/evaluationProject/publish', { id: p })).statusCode).toBe(200);
    const refused = await post('/evaluationList/score', { id: e, scores: { [a]: 9 } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toContain('已发布');
    // neither edited, added to nor removed
    expect(
      (await post('/evaluationList/submit', { id: e, projectId: p, subjectName: '改名', subjectType: '1' }))
        .statusCode,
    ).toBe(409);
    expect(
      (await post('/evaluationList/submit', { projectId: p, subjectName: '新增', subjectType: '1' }))
        .statusCode,
    ).toBe(409);
    expect((await post(`/evaluationList/remove?ids=${e}`)).statusCode).toBe(409);
    expect(Number((await post('/evaluationList/detail', { id: e })).json().data.totalScore)).toBe(80);

    // a reopening needs a reason
    expect((await post('/evaluationProject/reopen', { id: p })).statusCode).toBe(400);
    const reopened = await post('/evaluationProject/reopen', { id: p, reason: '二组申请复核' });
    expect(reopened.statusCode, reopened.body).toBe(200);
    const detail = (await get(`/evaluationProject/detail?id=${p}`)).json().data;
    expect(detail.projectStatus).toBe('2');
    const history = JSON.parse(detail.reopenHistory);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ account: 'admin', reason: '二组申请复核' });
    expect(history[0].time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const again = await post('/evaluationList/score', { id: e, scores: { [a]: 9 } });
    expect(again.statusCode).toBe(200);
    expect(Number(again.json().data.totalScore)).toBe(90);
    // a project that is not published cannot be reopened
    expect((await post('/evaluationProject/reopen', { id: p, reason: '再次' })).statusCode).toBe(409);
  });

  it('publish and reopen need their own permission codes', async () => {
    const role = await makeRole(s.database.db, '000000', 'eval-clerk');
    await grantCodes(s.database.db, role, ['evaluation_project', 'evaluation_project_edit']);
    const clerk = (await signedInUser(s, 'evalClerk', [role])).token;
    const res = await post('/evaluationProject/publish', { id: EVALUATION_DEMO.projectId }, clerk);
    expect(res.statusCode).toBe(403);
    const reopen = await post(
      '/evaluationProject/reopen',
      { id: EVALUATION_DEMO.publishedProjectId, reason: 'x' },
      clerk,
    );
    expect(reopen.statusCode).toBe(403);
  });
});

describe('tenant isolation', () => {
  it('another tenant can neither read nor score an entry, nor see the categories, by id', async () => {
    const a = await rule(10);
    const p = await project([{ ruleId: a, weight: 100 }]);
    const e = await entry(p, '一组');
    await makeTenant(s.database.db, '200301', '外村');
    const role = await makeRole(s.database.db, '200301', 'administrator');
    await grantCodes(s.database.db, role, 'all');
    const foreign = (await signedInUser(s, 'evalForeign', [role], '200301')).token;

    expect((await post('/evaluationList/detail', { id: e }, foreign)).statusCode).toBe(404);
    expect((await post('/evaluationList/score', { id: e, scores: { [a]: 1 } }, foreign)).statusCode).toBe(
      404,
    );
    expect((await post('/evaluationProject/publish', { id: p }, foreign)).statusCode).toBe(404);
    const list = await get(`/evaluationList/page?projectId=${p}`, foreign);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.total).toBe(0);
    const roots = await get('/evaluationRuleCategory/rootCategory', foreign);
    expect(roots.json().data).toEqual([]);
    // the owner's entry is unchanged
    expect(Number((await post('/evaluationList/detail', { id: e })).json().data.totalScore)).toBe(0);
  });

  it('rootCategory answers the seeded roots only', async () => {
    const res = await get('/evaluationRuleCategory/rootCategory');
    expect(res.statusCode).toBe(200);
    const names = (res.json().data as { name: string }[]).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['人居环境', '乡风文明', '产业发展']));
    expect(names).not.toContain('庭院卫生');
  });
});
