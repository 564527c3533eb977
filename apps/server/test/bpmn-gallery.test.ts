import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCodes, makeRole, signedInUser, WORK_CODES } from './fixtures';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * A gallery of standard BPMN 2.0 diagrams (fixtures/bpmn, each with its drawing), checked by the engine: a
 * diagram deploys and then runs to the end through the work lists, or it is refused at deployment with a
 * message naming the element it cannot run, and nothing is deployed. e2e/test/flow-gallery.spec.ts draws
 * the same files in the browser.
 */

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/bpmn');
const xmlOf = (file: string) => readFileSync(join(DIR, file), 'utf8');

/** Every fixture, with what it proves (a new file must be added here). */
const GALLERY = {
  runs: ['lanes-executable.bpmn', 'events-artifacts.bpmn', 'nested-subprocesses.bpmn', 'multi-instance.bpmn'],
  /** deployed (their constructs run in flow-constructs, flow-timers and flow-events tests) */
  deploys: ['boundary-events.bpmn', 'inclusive-join.bpmn', 'manual-task.bpmn'],
  /** what the deployment answer says after "<file> cannot be deployed: " (en) and "<file> 不能部署: " (zh) */
  refused: {
    'all-gateways.bpmn': [
      'ComplexGateway "汇总" cannot be executed here',
      '流程引擎不能执行 ComplexGateway "汇总"',
    ],
    'subprocesses.bpmn': [
      'Transaction "支付事务" cannot be executed here',
      '流程引擎不能执行 Transaction "支付事务"',
    ],
    // a service-type task runs a named action of the registry (the platform's and the modules'), never a
    // class, a delegate or a script
    'task-types.bpmn': [
      'ServiceTask "查询库存" names no action this system offers (flowable:type or camunda:type: notice, variables, http, reliefStage)',
      'ServiceTask "查询库存" 没有指定本系统提供的动作(flowable:type 或 camunda:type: notice、variables、http、reliefStage)',
    ],
    // the engine would start the partner's pool itself, or fail to find a process in a black-box pool
    'pools-message-flows.bpmn': [
      'MessageFlow "订单" between pools cannot be executed here',
      '流程引擎不能执行池之间的 MessageFlow "订单"',
    ],
    'black-box-pool.bpmn': [
      'MessageFlow "付款指令" between pools cannot be executed here',
      '流程引擎不能执行池之间的 MessageFlow "付款指令"',
    ],
    // bpmn-engine would run it with node:vm, which is no sandbox
    'script-condition.bpmn': [
      'the condition of SequenceFlow "脚本判断" is a javascript script: only ${…} expressions are executed here',
      'SequenceFlow "脚本判断" 的条件是 javascript 脚本: 这里只执行 ${…} 表达式',
    ],
  } as Record<string, [en: string, zh: string]>,
};

type Person = { id: string; token: string };
let s: TestServer;
let admin: string;
let applicant: Person;
let approver: Person;
let cashier: Person;

beforeAll(async () => {
  s = await startTestServer();
  admin = (await signIn(s)).access_token;
  const staff = await makeRole(s.database.db, '000000', 'staff', '职员');
  await grantCodes(s.database.db, staff, WORK_CODES);
  const finance = await makeRole(s.database.db, '000000', 'finance', '财务');
  await grantCodes(s.database.db, finance, WORK_CODES);
  applicant = await signedInUser(s, 'applicant', [staff]);
  approver = await signedInUser(s, 'approver', [staff]);
  cashier = await signedInUser(s, 'cashier', [finance]);
});
afterAll(() => s?.close());

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  s.app.inject({ method, url, headers: auth(token), payload });

function upload(files: string[]) {
  const form = new FormData();
  form.append('category', '2');
  form.append('tenantIds', '');
  for (const file of files) form.append('files', new Blob([xmlOf(file)]), file);
  return s.app.inject({
    method: 'POST',
    url: '/api/dfem-flow/manager/deploy-upload',
    headers: { ...auth(admin), 'accept-language': 'en' },
    payload: form,
  });
}

const deployedTotal = async () =>
  (await call(admin, 'GET', '/api/dfem-flow/manager/list?size=200')).json().data.total as number;
const processKeyOf = (file: string) =>
  /<bpmn:process id="([^"]+)"[^>]*isExecutable="true"/.exec(xmlOf(file))![1];

/** Deploys one fixture; answers its definition id after checking model-view gives the file back. */
async function deploy(file: string) {
  const res = await upload([file]);
  expect(res.statusCode, res.body).toBe(200);
  const pdid = res.json().data.processDefinitionIds[0] as string;
  expect(pdid.startsWith(`${processKeyOf(file)}:`)).toBe(true);
  const view = await call(
    applicant.token,
    'GET',
    `/api/dfem-flow/process/model-view?processDefinitionId=${pdid}`,
  );
  expect(view.statusCode).toBe(200);
  expect(view.json().data.xml).toBe(xmlOf(file));
  return pdid;
}

async function start(pdid: string, title: string) {
  const res = await call(applicant.token, 'POST', '/api/dfem-flow/process/apply/start-process', {
    processDefinitionId: pdid,
    title,
    taskUser: approver.id,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.processInstanceId as string;
}

type TaskRow = { taskId: string; taskName: string; taskDefinitionKey: string; processInstanceId: string };
const rows = async (p: Person, list: string, piid: string): Promise<TaskRow[]> =>
  (await call(p.token, 'GET', `/api/dfem-flow/work/${list}?current=1&size=100`))
    .json()
    .data.records.filter((r: TaskRow) => r.processInstanceId === piid);
const todo = (p: Person, piid: string) => rows(p, 'todo-list', piid);

/** The one waiting task `p` has (or may claim, then claimed) in the instance, named `name`. */
async function taskOf(p: Person, piid: string, name: string, claim = false) {
  if (claim) {
    const open = (await rows(p, 'claim-list', piid)).filter((t) => t.taskName === name);
    expect(open, `${name} to claim`).toHaveLength(1);
    const claimed = await call(p.token, 'POST', `/api/dfem-flow/work/claim-task?taskId=${open[0].taskId}`);
    expect(claimed.statusCode, claimed.body).toBe(200);
  }
  const mine = (await todo(p, piid)).filter((t) => t.taskName === name);
  expect(mine, `${name} in the to-do list`).toHaveLength(1);
  return mine[0];
}

async function complete(
  p: Person,
  task: TaskRow,
  variables: Record<string, string | number | boolean | string[]> = {},
) {
  const res = await call(p.token, 'POST', '/api/dfem-flow/work/complete-task', {
    taskId: task.taskId,
    flag: 'ok',
    comment: `${task.taskName} 完成`,
    variables,
  });
  expect(res.statusCode, `${task.taskName}: ${res.body}`).toBe(200);
}

const finished = async (piid: string) =>
  (await rows(applicant, 'send-list', piid))[0] as unknown as { processIsFinished: string };

/** The sequence flows and activities the instance went through (model-view's highlight). */
async function pathOf(piid: string) {
  const view = await call(
    applicant.token,
    'GET',
    `/api/dfem-flow/process/model-view?processInstanceId=${piid}`,
  );
  return new Set(view.json().data.flow.map((f: { historyActivityId: string }) => f.historyActivityId));
}

// ---------------------------------------------------------------- the files themselves

interface El {
  $type: string;
  id: string;
  [k: string]: unknown;
}

/** The elements a diagram should draw: every node, flow, artifact, data association, pool, lane, message flow. */
function drawable(definitions: El): El[] {
  const out: El[] = [];
  const list = (v: unknown) => (Array.isArray(v) ? (v as El[]) : []);
  const lanes = (set: El | undefined) => {
    for (const lane of list(set?.lanes)) {
      out.push(lane);
      lanes(lane.childLaneSet as El | undefined);
    }
  };
  const container = (c: El) => {
    for (const e of list(c.flowElements)) {
      if (e.$type !== 'bpmn:DataObject') out.push(e);
      out.push(...list(e.dataInputAssociations), ...list(e.dataOutputAssociations));
      if (e.flowElements) container(e);
    }
    out.push(...list(c.artifacts));
    for (const set of list(c.laneSets)) lanes(set);
  };
  for (const root of list(definitions.rootElements)) {
    if (root.$type === 'bpmn:Process') container(root);
    if (root.$type === 'bpmn:Collaboration')
      out.push(...list(root.participants), ...list(root.messageFlows), ...list(root.artifacts));
  }
  return out;
}

describe('the gallery', () => {
  it('names every fixture', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.bpmn'));
    expect(files.sort()).toEqual(
      [...GALLERY.runs, ...GALLERY.deploys, ...Object.keys(GALLERY.refused)].sort(),
    );
  });

  it('holds well-formed BPMN 2.0 files that draw every element they hold', async () => {
    const { default: BpmnModdle } = await import('bpmn-moddle');
    const { createRequire } = await import('node:module');
    const camunda = createRequire(import.meta.url)('camunda-bpmn-moddle/resources/camunda.json');
    for (const file of readdirSync(DIR).filter((f) => f.endsWith('.bpmn'))) {
      const { rootElement, warnings } = await new BpmnModdle({ camunda }).fromXML(xmlOf(file));
      expect(
        warnings.map((w: { message: string }) => w.message),
        file,
      ).toEqual([]);
      const drawn = new Map<string, number>();
      for (const diagram of rootElement.diagrams as { plane: { planeElement: { bpmnElement?: El }[] } }[])
        for (const di of diagram.plane.planeElement) {
          expect(di.bpmnElement, `${file}: a shape or edge without its element`).toBeTruthy();
          drawn.set(di.bpmnElement!.id, (drawn.get(di.bpmnElement!.id) ?? 0) + 1);
        }
      for (const el of drawable(rootElement))
        expect(drawn.get(el.id), `${file}: ${el.id} is drawn once`).toBe(1);
    }
  });
});

// ---------------------------------------------------------------- refused, with the element named

describe('diagrams the engine cannot run are refused whole', () => {
  for (const [file, [en, zh]] of Object.entries(GALLERY.refused)) {
    it(`${file}: refused (${en.split(' ')[0]}), nothing deployed`, async () => {
      const before = await deployedTotal();
      const res = await upload([file]);
      expect(res.statusCode).toBe(400);
      // every problem of the file in one answer, the first found first
      expect(res.json()).toMatchObject({ success: false, data: { field: 'files' } });
      expect(res.json().msg.startsWith(`${file} cannot be deployed: ${en}`), res.json().msg).toBe(true);
      // in Chinese too, the file and the element are named
      const form = new FormData();
      form.append('category', '2');
      form.append('files', new Blob([xmlOf(file)]), file);
      const zhAnswer = await s.app.inject({
        method: 'POST',
        url: '/api/dfem-flow/manager/deploy-upload',
        headers: auth(admin),
        payload: form,
      });
      expect(zhAnswer.statusCode).toBe(400);
      expect(zhAnswer.json().msg.startsWith(`${file} 不能部署: ${zh}`), zhAnswer.json().msg).toBe(true);
      expect(await deployedTotal()).toBe(before);
      const byKey = await call(admin, 'GET', `/api/dfem-flow/manager/list?processKey=${processKeyOf(file)}`);
      expect(byKey.json().data.total).toBe(0);
    });
  }

  it('a file with several elements the engine cannot run names them all in one answer', async () => {
    const res = await upload(['task-types.bpmn']);
    expect(res.statusCode).toBe(400);
    for (const named of [
      'ServiceTask "查询库存" names no action',
      'ScriptTask "计算运费" holds a script: scripts never run here',
      'BusinessRuleTask "定价规则" names no action',
      'SendTask "发送订单" names no action',
    ])
      expect(res.json().msg).toContain(named);
  });

  for (const file of GALLERY.deploys)
    it(`${file}: deployed`, async () => {
      await deploy(file);
    });

  it('a runnable file uploaded beside a refused one is not deployed either', async () => {
    const before = await deployedTotal();
    const res = await upload(['lanes-executable.bpmn', 'subprocesses.bpmn']);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('subprocesses.bpmn cannot be deployed');
    expect(await deployedTotal()).toBe(before);
  });
});

// ---------------------------------------------------------------- deployed and run to the end

describe('diagrams the engine runs are deployed and run to the end', () => {
  it('lanes-executable.bpmn, a large amount: both reviews in parallel, payment, archive and notice', async () => {
    const pdid = await deploy('lanes-executable.bpmn');
    const piid = await start(pdid, '差旅报销 5000 元');
    await complete(applicant, await taskOf(applicant, piid, '填写报销单'), { amount: 5000 });
    // the parallel fork: the manager's task and the finance role's, at once
    const managerTask = await taskOf(approver, piid, '经理审批');
    const financeTask = await taskOf(cashier, piid, '财务审核', true);
    await complete(cashier, financeTask);
    expect(await rows(cashier, 'claim-list', piid)).toEqual([]); // the join waits for the manager
    await complete(approver, managerTask, { archive: true, notify: true });
    // the embedded sub-process, for the finance role
    await complete(cashier, await taskOf(cashier, piid, '出纳付款', true));
    expect((await finished(piid)).processIsFinished).toBe('unfinished');
    // the inclusive gateway took both conditions (archive waits, notice passes), not its default
    await complete(applicant, await taskOf(applicant, piid, '归档'));
    expect((await finished(piid)).processIsFinished).toBe('finished');
    const path = await pathOf(piid);
    for (const id of [
      'large',
      'fork',
      'join',
      'payment',
      'pay',
      'toArchive',
      'toNotify',
      'archived',
      'notified',
    ])
      expect(path.has(id), id).toBe(true);
    for (const id of ['small', 'toRegister', 'registered']) expect(path.has(id), id).toBe(false);
    for (const p of [applicant, approver, cashier]) expect(await todo(p, piid)).toEqual([]);
  });

  it('lanes-executable.bpmn, a small amount: the default flows, straight to payment and registration', async () => {
    const [{ processDefinitionId: pdid }] = (
      await call(admin, 'GET', '/api/dfem-flow/manager/list?processKey=gallery_lanes')
    ).json().data.records;
    const piid = await start(pdid, '办公用品 300 元');
    await complete(applicant, await taskOf(applicant, piid, '填写报销单'), { amount: 300 });
    expect(await todo(approver, piid)).toEqual([]);
    await complete(cashier, await taskOf(cashier, piid, '出纳付款', true));
    expect((await finished(piid)).processIsFinished).toBe('finished');
    const path = await pathOf(piid);
    for (const id of ['small', 'merge', 'pay', 'toRegister', 'registered'])
      expect(path.has(id), id).toBe(true);
    for (const id of ['large', 'fork', 'toArchive']) expect(path.has(id), id).toBe(false);
  });

  it('events-artifacts.bpmn: throw events pass, the terminate end ends the instance and cancels the other task', async () => {
    const pdid = await deploy('events-artifacts.bpmn');
    const piid = await start(pdid, '事件与工件');
    await taskOf(applicant, piid, '办理');
    await complete(approver, await taskOf(approver, piid, '监督'));
    expect((await finished(piid)).processIsFinished).toBe('finished');
    expect(await todo(applicant, piid)).toEqual([]);
    const path = await pathOf(piid);
    for (const id of ['accepted', 'fork', 'notice', 'terminate']) expect(path.has(id), id).toBe(true);
    expect(path.has('end')).toBe(false);

    // and the other way round: the handler's branch passes its signal and escalation and waits at the end
    const second = await start(pdid, '事件与工件 2');
    await complete(applicant, await taskOf(applicant, second, '办理'));
    expect((await finished(second)).processIsFinished).toBe('unfinished');
    await complete(approver, await taskOf(approver, second, '监督'));
    expect((await finished(second)).processIsFinished).toBe('finished');
    const both = await pathOf(second);
    for (const id of ['doneSignal', 'report', 'end', 'notice', 'terminate'])
      expect(both.has(id), id).toBe(true);
  });
});

// ---------------------------------------------------------------- sub-processes within sub-processes

describe('multi-instance user tasks and sub-processes', () => {
  it('multi-instance.bpmn: three countersign tasks at once, then three rounds of checking one after the other', async () => {
    const piid = await start(await deploy('multi-instance.bpmn'), '多实例');
    const signs = (await todo(applicant, piid)).filter((t) => t.taskName === '会签');
    expect(signs).toHaveLength(3);
    for (const t of signs) await complete(applicant, t);
    for (let round = 0; round < 3; round++) {
      // one round at a time: a single 检查 waits
      await complete(approver, await taskOf(approver, piid, '检查'));
      expect((await finished(piid)).processIsFinished).toBe(round < 2 ? 'unfinished' : 'finished');
    }
    expect(await todo(approver, piid)).toEqual([]);
  });
});

describe('a user task two sub-processes deep', () => {
  it('nested-subprocesses.bpmn: each level’s task is found, completed, and the instance ends', async () => {
    const piid = await start(await deploy('nested-subprocesses.bpmn'), '嵌套');
    await complete(approver, await taskOf(approver, piid, '立项审批'));
    await complete(applicant, await taskOf(applicant, piid, '建设'));
    await complete(approver, await taskOf(approver, piid, '验收确认'));
    expect((await finished(piid)).processIsFinished).toBe('finished');
    expect(await todo(approver, piid)).toEqual([]);
  });
});

// ---------------------------------------------------------------- what users of Flowable-based consoles bring

function uploadXml(name: string, content: string | Buffer) {
  const form = new FormData();
  form.append('category', '2');
  form.append('tenantIds', '');
  form.append('files', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  return s.app.inject({
    method: 'POST',
    url: '/api/dfem-flow/manager/deploy-upload',
    headers: { ...auth(admin), 'accept-language': 'en' },
    payload: form,
  });
}

const processXml = (id: string, name: string, body: string, encoding = 'UTF-8', roots = '') =>
  `<?xml version="1.0" encoding="${encoding}"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  xmlns:act="http://activiti.org/bpmn" id="defs_${id}" targetNamespace="http://example.com">${roots}
  <process id="${id}" name="${name}" isExecutable="true">${body}</process>
</definitions>`;

describe('assignment as Flowable, Activiti and the standard write it', () => {
  it('flowable: and activiti: attributes, potentialOwner and humanPerformer each put the task in the right list', async () => {
    const xml = processXml(
      'dialects',
      '方言',
      `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="a"/>
      <userTask id="a" name="经理审批" flowable:assignee="\${taskUser}"/><sequenceFlow id="f2" sourceRef="a" targetRef="b"/>
      <userTask id="b" name="财务初审" act:candidateGroups="finance"/><sequenceFlow id="f3" sourceRef="b" targetRef="c"/>
      <userTask id="c" name="财务复核"><potentialOwner><resourceAssignmentExpression>
        <formalExpression>group(finance)</formalExpression></resourceAssignmentExpression></potentialOwner></userTask>
      <sequenceFlow id="f4" sourceRef="c" targetRef="d"/>
      <userTask id="d" name="申请人确认"><humanPerformer><resourceAssignmentExpression>
        <formalExpression>\${applyUser}</formalExpression></resourceAssignmentExpression></humanPerformer></userTask>
      <sequenceFlow id="f5" sourceRef="d" targetRef="e"/><endEvent id="e"/>`,
    );
    const res = await uploadXml('dialects.bpmn', xml);
    expect(res.statusCode, res.body).toBe(200);
    const piid = await start(res.json().data.processDefinitionIds[0], '方言流程');
    await complete(approver, await taskOf(approver, piid, '经理审批'));
    expect(await rows(approver, 'claim-list', piid)).toEqual([]);
    await complete(cashier, await taskOf(cashier, piid, '财务初审', true));
    await complete(cashier, await taskOf(cashier, piid, '财务复核', true));
    await complete(applicant, await taskOf(applicant, piid, '申请人确认'));
    expect((await finished(piid)).processIsFinished).toBe('finished');
  });

  it('#{…} conditions and assignees (Flowable’s deferred form) run as ${…}', async () => {
    const res = await uploadXml(
      'deferred.bpmn',
      processXml(
        'deferred',
        '延迟表达式',
        `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="a"/>
        <userTask id="a" name="请假审批" flowable:assignee="#{taskUser}"/>
        <sequenceFlow id="f2" sourceRef="a" targetRef="x"/>
        <exclusiveGateway id="x" default="small"/>
        <sequenceFlow id="large" sourceRef="x" targetRef="b"><conditionExpression>#{amount &gt; 3000}</conditionExpression></sequenceFlow>
        <sequenceFlow id="small" sourceRef="x" targetRef="e"/>
        <userTask id="b" name="长假确认" flowable:assignee="#{applyUser}"/>
        <sequenceFlow id="f3" sourceRef="b" targetRef="e"/><endEvent id="e"/>`,
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    const piid = await start(res.json().data.processDefinitionIds[0], '长假');
    await complete(approver, await taskOf(approver, piid, '请假审批'), { amount: 5000 });
    await complete(applicant, await taskOf(applicant, piid, '长假确认'));
    expect((await finished(piid)).processIsFinished).toBe('finished');
  });

  it('a user task nobody could ever receive is refused at deploy, named, with every other problem', async () => {
    const res = await uploadXml(
      'nobody.bpmn',
      processXml(
        'nobody',
        '无人',
        `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="a"/>
        <userTask id="a" name="无人审批"/><sequenceFlow id="f2" sourceRef="a" targetRef="b"/>
        <serviceTask id="b" name="调用接口"/><sequenceFlow id="f3" sourceRef="b" targetRef="e"/><endEvent id="e"/>`,
      ),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('UserTask "无人审批" names nobody to receive it');
    expect(res.json().msg).toContain('ServiceTask "调用接口" names no action this system offers');
  });

  it('a file declared ISO-8859-1 is read in that encoding', async () => {
    const xml = processXml(
      'latin',
      'Congé payé',
      `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="a"/>
      <userTask id="a" name="Réponse" flowable:assignee="\${taskUser}"/><sequenceFlow id="f2" sourceRef="a" targetRef="e"/>
      <endEvent id="e"/>`,
      'ISO-8859-1',
    );
    const res = await uploadXml('latin.bpmn', Buffer.from(xml, 'latin1'));
    expect(res.statusCode, res.body).toBe(200);
    const listed = await call(admin, 'GET', '/api/dfem-flow/manager/list?processKey=latin');
    expect(listed.json().data.records[0].name).toBe('Congé payé');
  });
});

describe('what only describes a process is accepted at deploy and never breaks a start', () => {
  it('item definitions on data objects and io specifications, a resourceRef owner, a global user task', async () => {
    const xml = processXml(
      'described',
      '带描述的流程',
      `<dataObject id="amountData" itemSubjectRef="amountItem"/>
      <dataObjectReference id="amountRef" dataObjectRef="amountData"/>
      <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="a"/>
      <userTask id="a" name="填写金额" flowable:assignee="\${applyUser}">
        <ioSpecification id="io"><dataInput id="amountIn" itemSubjectRef="amountItem"/>
          <inputSet id="ins"><dataInputRefs>amountIn</dataInputRefs></inputSet><outputSet id="outs"/></ioSpecification>
      </userTask>
      <sequenceFlow id="f2" sourceRef="a" targetRef="b"/>
      <userTask id="b" name="财务确认"><potentialOwner resourceRef="financeRole"/></userTask>
      <sequenceFlow id="f3" sourceRef="b" targetRef="e"/><endEvent id="e"/>`,
      'UTF-8',
      `<itemDefinition id="amountItem" structureRef="xsd:decimal"/>
      <resource id="financeRole" name="finance"/>
      <globalUserTask id="template" name="模板任务"/>`,
    );
    const res = await uploadXml('described.bpmn', xml);
    expect(res.statusCode, res.body).toBe(200);
    const piid = await start(res.json().data.processDefinitionIds[0], '描述流程');
    await complete(applicant, await taskOf(applicant, piid, '填写金额'));
    await complete(cashier, await taskOf(cashier, piid, '财务确认', true));
    expect((await finished(piid)).processIsFinished).toBe('finished');
  });
});

describe('countersign (会签): a multi-instance user task over a list of approvers', () => {
  it('three approvers, done when half or more have approved (two): the third task is withdrawn, the process goes on', async () => {
    const res = await uploadXml(
      'countersign.bpmn',
      processXml(
        'countersign',
        '会签',
        `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="pick"/>
        <userTask id="pick" name="选择会签人" flowable:assignee="\${applyUser}"/>
        <sequenceFlow id="f2" sourceRef="pick" targetRef="sign"/>
        <userTask id="sign" name="会签审批" flowable:assignee="\${approver}">
          <multiInstanceLoopCharacteristics isSequential="false" flowable:collection="\${approvers}"
            flowable:elementVariable="approver">
            <completionCondition>\${nrOfCompletedInstances * 2 &gt;= nrOfInstances}</completionCondition>
          </multiInstanceLoopCharacteristics>
        </userTask>
        <sequenceFlow id="f3" sourceRef="sign" targetRef="confirm"/>
        <userTask id="confirm" name="确认结果" flowable:assignee="\${applyUser}"/>
        <sequenceFlow id="f4" sourceRef="confirm" targetRef="e"/><endEvent id="e"/>`,
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    const piid = await start(res.json().data.processDefinitionIds[0], '会签三人');
    await complete(applicant, await taskOf(applicant, piid, '选择会签人'), {
      approvers: [approver.id, cashier.id, applicant.id],
    });
    // each approver holds their own instance of the task
    const signs = await Promise.all([approver, cashier, applicant].map((p) => taskOf(p, piid, '会签审批')));
    await complete(approver, signs[0]);
    expect(await taskOf(applicant, piid, '会签审批')).toBeTruthy();
    await complete(cashier, signs[1]);
    // two of three: the condition is met, the third instance is withdrawn and the process goes on
    expect((await todo(applicant, piid)).map((t) => t.taskName)).toEqual(['确认结果']);
    const late = await call(applicant.token, 'POST', '/api/dfem-flow/work/complete-task', {
      taskId: signs[2].taskId,
      flag: 'ok',
      comment: '迟到的审批',
    });
    expect(late.statusCode).not.toBe(200);
    await complete(applicant, await taskOf(applicant, piid, '确认结果'));
    expect((await finished(piid)).processIsFinished).toBe('finished');
    // the timeline names each approval: who approved and what they said
    const timeline = await call(
      applicant.token,
      'GET',
      `/api/dfem-flow/process/history-flow-list?processInstanceId=${piid}`,
    );
    const approvals = (
      timeline.json().data as { historyActivityName: string; assignee: string; comment: string }[]
    )
      .filter((h) => h.historyActivityName === '会签审批' && h.assignee)
      .map((h) => [h.assignee, h.comment]);
    expect(approvals).toEqual([
      [approver.id, '会签审批 完成'],
      [cashier.id, '会签审批 完成'],
    ]);
  });

  it('sequential: one approver after the other, in the list’s order', async () => {
    const res = await uploadXml(
      'sequential.bpmn',
      processXml(
        'sequential_sign',
        '依次审批',
        `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="pick"/>
        <userTask id="pick" name="选择审批人" flowable:assignee="\${applyUser}"/>
        <sequenceFlow id="f2" sourceRef="pick" targetRef="sign"/>
        <userTask id="sign" name="依次审批" flowable:assignee="\${approver}">
          <multiInstanceLoopCharacteristics isSequential="true" flowable:collection="\${approvers}"
            flowable:elementVariable="approver"/>
        </userTask>
        <sequenceFlow id="f3" sourceRef="sign" targetRef="e"/><endEvent id="e"/>`,
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    const piid = await start(res.json().data.processDefinitionIds[0], '依次两人');
    await complete(applicant, await taskOf(applicant, piid, '选择审批人'), {
      approvers: [cashier.id, approver.id],
    });
    expect(await todo(approver, piid)).toEqual([]); // not yet: the cashier is first
    await complete(cashier, await taskOf(cashier, piid, '依次审批'));
    await complete(approver, await taskOf(approver, piid, '依次审批'));
    expect((await finished(piid)).processIsFinished).toBe('finished');
  });
});
