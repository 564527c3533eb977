import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowWait } from '../src/modules/flow/tables';
import { bpmn, flow, kit, type Person, task, until } from './flow-kit';
import { dbKind, startTestServer, type TestServer } from './harness';

/**
 * The `http` action of a service task calls its endpoint after the transaction that reached the task has
 * committed, and continues the instance in a new one: a slow endpoint holds no transaction (the instance's
 * other tasks are completed meanwhile; on PostgreSQL no session is idle in a transaction), and a call that
 * gets no answer is made again later by a poller. The endpoint is a real HTTP server started by the test.
 */

let s: TestServer;
const extra: TestServer[] = [];
const k = kit(() => s);
let applicant: Person;
let approver: Person;

/** the endpoint: what it received, and how it answers the next call */
let hook: Server;
let base = '';
const calls: { body: string; key: string; answered: boolean }[] = [];
let mode: 'answer' | 'hold' | 'drop' = 'answer';
let release: () => void = () => {};

beforeAll(async () => {
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const call = { body, key: String(req.headers['idempotency-key'] ?? ''), answered: false };
      calls.push(call);
      const answer = () => {
        call.answered = true;
        res.writeHead(201).end('{}');
      };
      if (mode === 'drop') {
        mode = 'answer';
        req.socket.destroy();
      } else if (mode === 'hold') {
        // answered when the test says so (or before the caller's 5 s time-out)
        const timer = setTimeout(answer, 4000);
        release = () => {
          clearTimeout(timer);
          answer();
        };
      } else answer();
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`;
  s = await startTestServer({ FLOW_HTTP_ALLOW: base, FLOW_TIMER_INTERVAL_MS: '3600000' });
  const { people } = await k.setup(['applicant', 'approver']);
  ({ applicant, approver } = people);
});
afterAll(async () => {
  for (const p of extra) await p.close();
  await s?.close();
  await new Promise((r) => hook?.close(r));
});

const httpTask = (id: string, name: string) =>
  `<bpmn:serviceTask id="${id}" name="${name}" flowable:type="http"><bpmn:extensionElements>
    <flowable:field name="url" stringValue="${base}hook"/><flowable:field name="resultVariable" stringValue="hookStatus"/>
  </bpmn:extensionElements></bpmn:serviceTask>`;
const actionRows = (piid: string) =>
  s.database.db
    .select()
    .from(flowWait)
    .where(and(eq(flowWait.processInstanceId, piid), eq(flowWait.kind, 'action')));

describe('http actions', () => {
  it('the instance goes on with the answer’s status; the call names the instance and carries an idempotency key', async () => {
    const pdid = await k.deploy(
      'callback',
      bpmn(
        'callback',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'h')}${httpTask('h', '回调')}${flow('b', 'h', 'g')}
        <bpmn:exclusiveGateway id="g" default="other"/>
        ${flow('created', 'g', 't', '${hookStatus == 201}')}${flow('other', 'g', 'e')}
        ${task('t', '已回调', '${applyUser}')}${flow('c', 't', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    mode = 'answer';
    const piid = await k.start(applicant, pdid);
    expect(await k.todoNames(applicant, piid)).toEqual(['已回调']);
    const call = calls.find((c) => c.body.includes(piid));
    expect(JSON.parse(call?.body ?? '{}')).toEqual({ processInstanceId: piid });
    const [row] = await actionRows(piid);
    expect(call?.key).toBe(row.id);
    expect(row.firedAt).not.toBeNull();
    await k.complete(applicant, piid, '已回调');
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('a slow endpoint holds no transaction: the instance’s other task is completed while it answers', async () => {
    const pdid = await k.deploy(
      'slowHook',
      bpmn(
        'slowHook',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'fork')}<bpmn:parallelGateway id="fork"/>
        ${flow('f1', 'fork', 'h')}${flow('f2', 'fork', 't')}
        ${httpTask('h', '慢回调')}${task('t', '并行审批')}
        ${flow('j1', 'h', 'join')}${flow('j2', 't', 'join')}<bpmn:parallelGateway id="join"/>
        ${flow('b', 'join', 'z')}${task('z', '归档', '${applyUser}')}${flow('c', 'z', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    mode = 'hold';
    const before = calls.length;
    const starting = k.call(applicant.token, 'POST', '/api/dfem-flow/process/apply/start-process', {
      processDefinitionId: pdid,
      title: 'slow',
      taskUser: approver.id,
    });
    expect(await until(() => calls.length > before)).toBe(true);
    const call = calls[calls.length - 1];
    const piid = JSON.parse(call.body).processInstanceId as string;
    if (dbKind === 'postgres') {
      // nobody holds a transaction open while the endpoint thinks
      const { rows } = (await s.database.db.execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
      )) as unknown as { rows: { n: number }[] };
      expect(rows[0].n).toBe(0);
    }
    // the start has committed: the parallel task is in the list, and completing it is not held up
    expect(await k.todoNames(approver, piid)).toEqual(['并行审批']);
    await k.complete(approver, piid, '并行审批');
    expect(call.answered).toBe(false);
    mode = 'answer';
    release();
    const started = await starting;
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().data.processInstanceId).toBe(piid);
    // both branches are done: the join passed
    expect(await k.todoNames(applicant, piid)).toEqual(['归档']);
    await k.complete(applicant, piid, '归档');
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('a call without an answer: the instance waits, and a poller calls again later (same key), then it goes on', async () => {
    const pdid = await k.deploy(
      'flakyHook',
      bpmn(
        'flakyHook',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'h')}${httpTask('h', '回调')}${flow('b', 'h', 't')}
        ${task('t', '已回调', '${applyUser}')}${flow('c', 't', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    mode = 'drop';
    const piid = await k.start(applicant, pdid);
    // the start is kept; the action waits to be tried again, its failure noted
    expect(await k.state(applicant, piid)).toBe('unfinished');
    expect(await k.todoNames(applicant, piid)).toEqual([]);
    const [row] = await actionRows(piid);
    expect(row).toMatchObject({ firedAt: null, repeat: 1, claimedBy: null });
    expect(row.spec).toBeTruthy();
    expect(row.dueAt!.getTime()).toBeGreaterThan(Date.now() + 30_000);
    // the minute passes; a server with a quick poller (as after a restart) makes the call again
    await s.database.db.update(flowWait).set({ dueAt: new Date() }).where(eq(flowWait.id, row.id));
    extra.push(
      await startTestServer({ FLOW_HTTP_ALLOW: base, FLOW_TIMER_INTERVAL_MS: '50' }, { alongside: s }),
    );
    expect(await until(async () => (await k.todoNames(applicant, piid)).length > 0)).toBe(true);
    expect(await k.todoNames(applicant, piid)).toEqual(['已回调']);
    const mine = calls.filter((c) => c.body.includes(piid));
    expect(mine.map((c) => c.key)).toEqual([row.id, row.id]);
    await k.complete(applicant, piid, '已回调');
    expect(await k.state(applicant, piid)).toBe('finished');
  });
});
