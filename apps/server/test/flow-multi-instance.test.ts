// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowInstance, flowWait } from '../src/modules/flow/tables';
import { bpmn, flow, kit, type Person, task } from './flow-kit';
import { startTestServer, type TestServer } from './harness';

/**
 * Multi-instance sub-processes and call activities, parallel and sequential, over a list of reviewers (the
 * start form's collection variable) with an element variable, and with a completion condition: each
 * iteration's tasks go to its own reviewer, a called child per iteration, and what a condition leaves
 * unfinished is withdrawn. Each process is written for the test and run to its end through the work lists.
 */

let s: TestServer;
const k = kit(() => s);
let applicant: Person;
let clerk: Person;
let r1: Person;
let r2: Person;
let r3: Person;

beforeAll(async () => {
  s = await startTestServer();
  ({ applicant, clerk, r1, r2, r3 } = (await k.setup(['applicant', 'clerk', 'r1', 'r2', 'r3'])).people);
});
afterAll(() => s?.close());

/** Starts with the reviewers as the collection variable `reviewers`; the clerk is the taskUser. */
async function startWith(pdid: string, reviewers: Person[]) {
  const res = await k.call(applicant.token, 'POST', '/api/dfem-flow/process/apply/start-process', {
    processDefinitionId: pdid,
    title: '多实例',
    taskUser: clerk.id,
    variables: { reviewers: reviewers.map((r) => r.id) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.processInstanceId as string;
}

const loop = (opts: { sequential?: boolean; done?: string; prefix?: string } = {}) => {
  const p = opts.prefix ?? 'camunda';
  return `<bpmn:multiInstanceLoopCharacteristics isSequential="${!!opts.sequential}" ${p}:collection="\${reviewers}" ${p}:elementVariable="reviewer">${
    opts.done
      ? `<bpmn:completionCondition xsi:type="bpmn:tFormalExpression">${opts.done}</bpmn:completionCondition>`
      : ''
  }</bpmn:multiInstanceLoopCharacteristics>`;
};

/** A sub-process per reviewer: 审核 (theirs); rejected, 复核 (theirs again); then 汇总 for the clerk. */
const reviewRounds = (key: string, opts: Parameters<typeof loop>[0] = {}) =>
  bpmn(
    key,
    `<bpmn:startEvent id="s"/>${flow('a', 's', 'sub')}
    <bpmn:subProcess id="sub" name="逐人审核">${loop(opts)}
      <bpmn:startEvent id="ss"/>${flow('s1', 'ss', 'check')}${task('check', '审核', '${reviewer}')}
      ${flow('s2', 'check', 'gw')}<bpmn:exclusiveGateway id="gw" default="again"/>
      ${flow('ok', 'gw', 'se', "${flag == 'ok'}")}${flow('again', 'gw', 'recheck')}
      ${task('recheck', '复核', '${reviewer}')}${flow('s3', 'recheck', 'se')}<bpmn:endEvent id="se"/>
    </bpmn:subProcess>
    ${flow('b', 'sub', 'sum')}${task('sum', '汇总')}${flow('c', 'sum', 'e')}<bpmn:endEvent id="e"/>`,
  );

const todo = (p: Person, piid: string) => k.todoNames(p, piid);
async function reject(p: Person, piid: string, name: string) {
  const [t] = (await k.rows(p, 'todo-list', piid)).filter((r) => r.taskName === name);
  const res = await k.call(p.token, 'POST', '/api/dfem-flow/work/complete-task', {
    taskId: t.taskId,
    flag: 'reject',
    comment: '退回',
  });
  expect(res.statusCode, res.body).toBe(200);
}
const stateOf = async (piid: string) =>
  (
    await s.database.db
      .select({ state: flowInstance.state })
      .from(flowInstance)
      .where(eq(flowInstance.processInstanceId, piid))
  )[0]?.state;

describe('multi-instance sub-processes', () => {
  it('parallel: one iteration per reviewer, each with its own tasks (a later step too); then the path goes on', async () => {
    const pdid = await k.deploy('roundsParallel', reviewRounds('roundsParallel'));
    const piid = await startWith(pdid, [r1, r2, r3]);
    for (const r of [r1, r2, r3]) expect(await todo(r, piid)).toEqual(['审核']);
    await k.complete(r1, piid, '审核');
    // r2 rejects: 复核 comes back to r2 (the iteration's reviewer, read again in a later run)
    await reject(r2, piid, '审核');
    expect(await todo(r2, piid)).toEqual(['复核']);
    expect(await todo(r1, piid)).toEqual([]);
    await k.complete(r3, piid, '审核');
    expect(await todo(clerk, piid)).toEqual([]);
    await k.complete(r2, piid, '复核');
    expect(await todo(clerk, piid)).toEqual(['汇总']);
    await k.complete(clerk, piid, '汇总');
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('sequential (Flowable’s attributes): one reviewer after the other, in the list’s order', async () => {
    const pdid = await k.deploy(
      'roundsSequential',
      reviewRounds('roundsSequential', { sequential: true, prefix: 'flowable' }),
    );
    const piid = await startWith(pdid, [r3, r1, r2]);
    for (const [now, later] of [
      [r3, [r1, r2]],
      [r1, [r2]],
      [r2, []],
    ] as [Person, Person[]][]) {
      expect(await todo(now, piid)).toEqual(['审核']);
      for (const l of later) expect(await todo(l, piid)).toEqual([]);
      await k.complete(now, piid, '审核');
    }
    await k.complete(clerk, piid, '汇总');
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('a completion condition: two of three done ends the third iteration, its task withdrawn', async () => {
    const pdid = await k.deploy(
      'roundsTwoOfThree',
      reviewRounds('roundsTwoOfThree', { done: '${nrOfCompletedInstances >= 2}' }),
    );
    const piid = await startWith(pdid, [r1, r2, r3]);
    await k.complete(r1, piid, '审核');
    await k.complete(r3, piid, '审核');
    expect(await todo(r2, piid)).toEqual([]);
    await k.complete(clerk, piid, '汇总');
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('refuses a completion condition that is not an expression of the language, naming the element', async () => {
    const res = await k.upload(
      'roundsBadCondition',
      reviewRounds('roundsBadCondition', { done: '${nrOfCompletedInstances >>> 2}' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain(
      'the completion condition "${nrOfCompletedInstances >>> 2}" of SubProcess "逐人审核"',
    );
  });
});

describe('multi-instance call activities', () => {
  /** the called process: the reviewer's 子流程审核, and what it answers */
  const reviewChild = (key: string) =>
    bpmn(
      key,
      `<bpmn:startEvent id="s"/>${flow('a', 's', 't')}${task('t', '子流程审核', '${reviewer}')}${flow('b', 't', 'e')}<bpmn:endEvent id="e"/>`,
    );
  const caller = (key: string, childKey: string, opts: Parameters<typeof loop>[0] = {}) =>
    bpmn(
      key,
      `<bpmn:startEvent id="s"/>${flow('a', 's', 'call')}
      <bpmn:callActivity id="call" name="逐人调用" calledElement="${childKey}">
        <bpmn:extensionElements><camunda:in source="reviewer" target="reviewer"/><camunda:in sourceExpression="\${loopCounter}" target="round"/></bpmn:extensionElements>
        ${loop(opts)}
      </bpmn:callActivity>
      ${flow('b', 'call', 'sum')}${task('sum', '汇总')}${flow('c', 'sum', 'e')}<bpmn:endEvent id="e"/>`,
    );

  /** the children the caller started (from its call waits), oldest first, with their states and variables */
  async function children(piid: string) {
    const calls = await s.database.db
      .select({ child: flowWait.childInstanceId, open: flowWait.firedAt })
      .from(flowWait)
      .where(and(eq(flowWait.processInstanceId, piid), eq(flowWait.kind, 'call')))
      .orderBy(flowWait.createTime, flowWait.id);
    const ids = calls.map((c) => c.child as string);
    const rows = ids.length
      ? await s.database.db
          .select({
            piid: flowInstance.processInstanceId,
            state: flowInstance.state,
            variables: flowInstance.variables,
          })
          .from(flowInstance)
          .where(inArray(flowInstance.processInstanceId, ids))
      : [];
    return ids.map((id) => {
      const r = rows.find((x) => x.piid === id);
      return { piid: id, state: r?.state, variables: JSON.parse(r?.variables ?? '{}') };
    });
  }

  it('parallel: a child per reviewer, its element variable and loopCounter mapped in; the caller goes on after the last', async () => {
    await k.deploy('reviewChildP', reviewChild('reviewChildP'));
    const pdid = await k.deploy('callParallel', caller('callParallel', 'reviewChildP'));
    const piid = await startWith(pdid, [r1, r2, r3]);
    const kids = await children(piid);
    expect(kids.map((c) => c.state)).toEqual(['running', 'running', 'running']);
    expect(kids.map((c) => [c.variables.reviewer, c.variables.round]).sort()).toEqual([
      [r1.id, 0],
      [r2.id, 1],
      [r3.id, 2],
    ]);
    for (const [i, r] of [r1, r2, r3].entries()) {
      const mine = kids.find((c) => c.variables.reviewer === r.id)?.piid as string;
      expect(await todo(r, mine)).toEqual(['子流程审核']);
      await k.complete(r, mine, '子流程审核');
      expect(await todo(clerk, piid)).toEqual(i < 2 ? [] : ['汇总']);
    }
    expect((await children(piid)).map((c) => c.state)).toEqual(['finished', 'finished', 'finished']);
    await k.complete(clerk, piid, '汇总');
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('sequential: the next child starts when the one before ends', async () => {
    await k.deploy('reviewChildS', reviewChild('reviewChildS'));
    const pdid = await k.deploy(
      'callSequential',
      caller('callSequential', 'reviewChildS', { sequential: true }),
    );
    const piid = await startWith(pdid, [r2, r1]);
    let kids = await children(piid);
    expect(kids.map((c) => c.variables.reviewer)).toEqual([r2.id]);
    await k.complete(r2, kids[0].piid, '子流程审核');
    kids = await children(piid);
    expect(kids.map((c) => [c.variables.reviewer, c.state])).toEqual([
      [r2.id, 'finished'],
      [r1.id, 'running'],
    ]);
    expect(await todo(clerk, piid)).toEqual([]);
    await k.complete(r1, kids[1].piid, '子流程审核');
    await k.complete(clerk, piid, '汇总');
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('a completion condition: two children done ends the third (its task leaves the lists, nothing of it waits)', async () => {
    await k.deploy('reviewChildC', reviewChild('reviewChildC'));
    const pdid = await k.deploy(
      'callTwoOfThree',
      caller('callTwoOfThree', 'reviewChildC', { done: '${nrOfCompletedInstances >= 2}' }),
    );
    const piid = await startWith(pdid, [r1, r2, r3]);
    const kids = await children(piid);
    const of = (r: Person) => kids.find((c) => c.variables.reviewer === r.id)?.piid as string;
    await k.complete(r3, of(r3), '子流程审核');
    await k.complete(r1, of(r1), '子流程审核');
    const after = await children(piid);
    expect(Object.fromEntries(after.map((c) => [c.variables.reviewer, c.state]))).toEqual({
      [r1.id]: 'finished',
      [r2.id]: 'deleted',
      [r3.id]: 'finished',
    });
    expect(await todo(r2, of(r2))).toEqual([]);
    const open = await s.database.db
      .select({ id: flowWait.id })
      .from(flowWait)
      .where(and(inArray(flowWait.processInstanceId, [piid, of(r2)]), isNull(flowWait.firedAt)));
    expect(open).toEqual([]);
    expect(await stateOf(of(r2))).toBe('deleted');
    await k.complete(clerk, piid, '汇总');
    expect(await k.state(applicant, piid)).toBe('finished');
  });
});
