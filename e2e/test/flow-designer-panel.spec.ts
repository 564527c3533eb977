// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template strings
import type { Locator, Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import { adminApi, choose, expandedCallXml, openNewModel, rowActions } from './flow-helpers';

/**
 * The designer's properties panel writes what the server's engine runs: a service task's action (发送通知,
 * its recipients) and a non-interrupting timer boundary event (P1D, checked as ISO 8601 while typed), set
 * through the panel on a small imported file, saved and deployed from 模型管理. And an expanded call
 * activity draws the process it calls in the designer too: that content is read-only, moves with the call
 * activity, and saving keeps every element in its own process.
 */
test.use({ storageState: authFile() });

const ns = `xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"`;
const shape = (id: string, x: number, y: number, w = 100, h = 80, extra = '') =>
  `<bpmndi:BPMNShape id="${id}_di" bpmnElement="${id}"${extra}><dc:Bounds x="${x}" y="${y}" width="${w}" height="${h}"/></bpmndi:BPMNShape>`;
const edge = (id: string, points: [number, number][]) =>
  `<bpmndi:BPMNEdge id="${id}_di" bpmnElement="${id}">${points.map(([x, y]) => `<di:waypoint x="${x}" y="${y}"/>`).join('')}</bpmndi:BPMNEdge>`;

/** start → 发送通知 (a service task naming no action yet) → 审批 (a timer on it, no time yet) → end */
const panelXml = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions ${ns} id="defs" targetNamespace="http://smart-admin/flow">
  <bpmn:process id="imported" isExecutable="true">
    <bpmn:startEvent id="start" name="开始"/>
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="notify"/>
    <bpmn:serviceTask id="notify" name="通知发起人"/>
    <bpmn:sequenceFlow id="f2" sourceRef="notify" targetRef="approve"/>
    <bpmn:userTask id="approve" name="审批" camunda:assignee="\${applyUser}"/>
    <bpmn:sequenceFlow id="f3" sourceRef="approve" targetRef="end"/>
    <bpmn:endEvent id="end" name="结束"/>
    <bpmn:boundaryEvent id="remind" name="催办" attachedToRef="approve"><bpmn:timerEventDefinition id="remindTimer"/></bpmn:boundaryEvent>
    <bpmn:sequenceFlow id="f4" sourceRef="remind" targetRef="reminded"/>
    <bpmn:endEvent id="reminded" name="已提醒"/>
  </bpmn:process>
  <bpmndi:BPMNDiagram id="diagram">
    <bpmndi:BPMNPlane id="plane" bpmnElement="imported">
      ${shape('start', 100, 122, 36, 36)}${shape('notify', 190, 100)}${shape('approve', 350, 100)}
      ${shape('end', 510, 122, 36, 36)}${shape('remind', 382, 162, 36, 36)}${shape('reminded', 382, 260, 36, 36)}
      ${edge('f1', [
        [136, 140],
        [190, 140],
      ])}${edge('f2', [
        [290, 140],
        [350, 140],
      ])}${edge('f3', [
        [450, 140],
        [510, 140],
      ])}
      ${edge('f4', [
        [400, 198],
        [400, 260],
      ])}
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>`;

/** Imports `xml` into the open designer through its 导入文件 button. */
async function importInto(dialog: Locator, xml: string) {
  await dialog.locator('input[type="file"]').setInputFiles({
    name: 'imported.bpmn',
    mimeType: 'application/xml',
    buffer: Buffer.from(xml),
  });
  await expect(dialog.page().getByText('已导入,保存后生效')).toBeVisible();
}

/** The saved diagram of the model `key`, read through the API. */
async function savedXml(baseURL: string, key: string) {
  const api = await adminApi(baseURL);
  const page = await api.call<{ records: { id: string; modelKey: string }[] }>(
    'GET',
    `/dfem-flow/model/list?current=1&size=10&modelKey=${key}`,
  );
  const model = page.records.find((m) => m.modelKey === key)!;
  const detail = await api.call<{ xml: string }>('GET', `/dfem-flow/model/detail?id=${model.id}`);
  return { api, xml: detail.xml };
}

/** The text of the element `<tag … id="id" …>…</tag>` in `xml` (prefix-agnostic), for assertions. */
function elementText(xml: string, tag: string, id: string) {
  const m = new RegExp(`<(\\w+:)?${tag}\\b[^>]*\\bid="${id}"[^>]*?(/>|>[\\s\\S]*?</(\\w+:)?${tag}>)`).exec(
    xml,
  );
  return m?.[0] ?? '';
}

async function translation(el: Locator) {
  const t = (await el.getAttribute('transform')) ?? '';
  const [, x, y] = /matrix\(1 0 0 1 (-?[\d.]+) (-?[\d.]+)\)/.exec(t) ?? [];
  return { x: Number(x), y: Number(y) };
}

async function drag(page: Page, from: { x: number; y: number }, dx: number, dy: number) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + dx / 2, from.y + dy / 2, { steps: 4 });
  await page.mouse.move(from.x + dx, from.y + dy, { steps: 4 });
  await page.mouse.up();
}

test('the panel sets a service task’s action and a non-interrupting timer; deployed, the file carries both', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const key = `e2e_panel_${suffix}`;
  const name = `属性面板${suffix}`;
  const { dialog, canvas, panel } = await openNewModel(page, key, name);
  await importInto(dialog, panelXml);

  // ---- the service task: 发送通知 to the applicant
  await canvas.locator('[data-element-id="notify"]').click();
  await expect(panel.getByRole('heading', { name: '服务任务' })).toBeVisible();
  await expect(panel.getByText('请选择动作:没有动作的服务任务不能部署')).toBeVisible();
  await choose(panel, '动作', '发送通知');
  await expect(panel.getByText('请选择动作')).toBeHidden();
  // the recipients are required
  await expect(panel.getByText('必填')).toBeVisible();
  await choose(panel, '通知对象', '${applyUser} · 发起人');
  await expect(panel.getByText('必填')).toBeHidden();
  await panel.getByLabel('通知标题', { exact: true }).fill('请审批');

  // ---- the timer on 审批: checked as typed, set by a preset, made non-interrupting
  await canvas.locator('[data-element-id="remind"]').click();
  await expect(panel.getByRole('heading', { name: '边界事件' })).toBeVisible();
  await expect(panel.getByText('请填写时间:没有时间的定时器不能部署')).toBeVisible();
  const time = panel.getByLabel('时间', { exact: true });
  // the kind: a cycle is checked as a cycle (one that never moves on is refused), then back to a duration
  await choose(panel, '定时方式', '周期');
  await time.fill('R/PT0S');
  await expect(panel.getByText('周期的间隔必须大于 0')).toBeVisible();
  await choose(panel, '定时方式', '时长');
  await time.fill('P1X');
  await expect(panel.getByText('不是 ISO 8601 时长')).toBeVisible();
  await expect(time).toHaveAttribute('aria-invalid', 'true');
  await panel.getByRole('button', { name: '1 天' }).click();
  await expect(time).toHaveValue('P1D');
  await expect(panel.getByText('不是 ISO 8601 时长')).toBeHidden();
  const interrupting = panel.getByRole('switch', { name: '中断' });
  await expect(interrupting).toHaveAttribute('aria-checked', 'true');
  await interrupting.click();
  await expect(interrupting).toHaveAttribute('aria-checked', 'false');
  await expect(panel.getByText('到时后所附的任务继续等待')).toBeVisible();

  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('保存成功')).toBeVisible();
  await expect(dialog).toBeHidden();

  // ---- deployed from its row: the engine accepts the action and the timer
  await rowActions(page, name)
    .getByRole('button', { name: /部\s*署/ })
    .click();
  const deploy = page.getByRole('dialog', { name: `部署模型「${name}」` });
  await deploy.getByRole('button', { name: /部\s*署/ }).click();
  await expect(page.getByText('部署成功')).toBeVisible();

  const { api, xml } = await savedXml(baseURL!, key);
  const definitions = await api.call<{ records: { key: string; version: number }[] }>(
    'GET',
    `/dfem-flow/manager/list?current=1&size=10&processKey=${key}`,
  );
  expect(definitions.records.map((d) => d.key)).toContain(key);
  const notify = elementText(xml, 'serviceTask', 'notify');
  expect(notify).toContain('camunda:type="notice"');
  expect(notify).toMatch(/<camunda:field name="to" stringValue="\$\{applyUser\}"\s*\/>/);
  expect(notify).toMatch(/<camunda:field name="title" stringValue="请审批"\s*\/>/);
  const remind = elementText(xml, 'boundaryEvent', 'remind');
  expect(remind).toContain('cancelActivity="false"');
  expect(remind).toMatch(
    /<(\w+:)?timeDuration xsi:type="(\w+:)?tFormalExpression">P1D<\/(\w+:)?timeDuration>/,
  );
});

test('an expanded call activity draws the called process in the designer, read-only, and saving keeps it in its process', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const key = `e2e_expanded_${suffix}`;
  const name = `展开调用${suffix}`;
  const xml = expandedCallXml(key, name, suffix);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const { dialog, canvas, panel } = await openNewModel(page, key, name);
  await importInto(dialog, xml);
  await choose(dialog, '选择流程图', '调用方');
  const element = (id: string) => canvas.locator(`.djs-element[data-element-id="${id}"]`);
  await expect(element('call')).toBeVisible();
  // the called process is drawn inside the call activity, its name at the top
  await expect(element('check')).toBeVisible();
  await expect(element('call').getByText('调用审核')).toBeVisible();

  // what it draws is read-only: the panel says so, and it does not move by itself
  await element('check').click();
  await expect(panel.getByText('这是被调用流程「被调用的审核」的内容')).toBeVisible();
  await expect(panel.getByLabel('名称', { exact: true })).toHaveAttribute('readonly', '');
  const before = await translation(element('check'));
  const checkBox = (await element('check').boundingBox())!;
  await drag(page, { x: checkBox.x + checkBox.width / 2, y: checkBox.y + checkBox.height / 2 }, 60, 80);
  expect(await translation(element('check'))).toEqual(before);

  // the call activity moves, and takes what it draws along
  await element('call').click({ position: { x: 20, y: 12 } });
  await expect(panel.getByText('这个调用活动是展开的')).toBeVisible();
  const callBefore = await translation(element('call'));
  const callBox = (await element('call').boundingBox())!;
  await drag(page, { x: callBox.x + 20, y: callBox.y + 12 }, 0, 90);
  const callAfter = await translation(element('call'));
  expect(callAfter.y).toBeGreaterThan(callBefore.y);
  const dy = callAfter.y - callBefore.y;
  expect(await translation(element('check'))).toEqual({ x: before.x, y: before.y + dy });

  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('保存成功')).toBeVisible();

  // saved: every element in the process it came from, the drawing moved with the call activity
  const { xml: saved } = await savedXml(baseURL!, key);
  const called = elementText(saved, 'process', `called_${suffix}`);
  const caller = elementText(saved, 'process', `caller_${suffix}`);
  const main = elementText(saved, 'process', key);
  for (const id of ['calledStart', 'check', 'calledEnd', 'toCheck', 'toCalledEnd']) {
    expect(called, id).toContain(`id="${id}"`);
    expect(caller, id).not.toContain(`id="${id}"`);
  }
  expect(caller).toContain('id="call"');
  expect(main).toContain('isExecutable="true"');
  expect(caller).toContain('isExecutable="false"');
  const bounds = (id: string) =>
    /<dc:Bounds x="(-?[\d.]+)" y="(-?[\d.]+)"/
      .exec(elementText(saved, 'BPMNShape', `${id}_di`))!
      .slice(1)
      .map(Number);
  const [, callY] = bounds('call');
  const [checkX, checkY] = bounds('check');
  expect(callY).toBeGreaterThan(80);
  expect([checkX, checkY]).toEqual([320, 150 + (callY - 80)]);
  expect(errors).toEqual([]);
});
