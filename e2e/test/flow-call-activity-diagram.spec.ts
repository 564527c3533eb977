import { authFile, expect, test } from './fixtures';
import { choose, openDeployedDiagram } from './flow-helpers';
import { adminToken, BASIC } from './shell-helpers';

/**
 * An expanded call activity draws the process it calls (as the BPMN MIWG's B.2.0 files do): the file's
 * second diagram holds a call activity marked isExpanded with the called process' shapes inside it;
 * 部署管理's 流程图 draws them there, the call activity's name at its top.
 */
test.use({ storageState: authFile() });

const suffix = Date.now().toString(36);
const key = `expanded_call_${suffix}`;
const name = `展开的调用 ${suffix}`;

const shape = (id: string, x: number, y: number, w = 100, h = 80, extra = '') =>
  `<bpmndi:BPMNShape id="${id}_di" bpmnElement="${id}"${extra}><dc:Bounds x="${x}" y="${y}" width="${w}" height="${h}"/></bpmndi:BPMNShape>`;
const edge = (id: string, x1: number, x2: number, y: number) =>
  `<bpmndi:BPMNEdge id="${id}_di" bpmnElement="${id}"><di:waypoint x="${x1}" y="${y}"/><di:waypoint x="${x2}" y="${y}"/></bpmndi:BPMNEdge>`;

const XML = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC"
  xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="defs" targetNamespace="http://example.com">
  <bpmn:process id="${key}" name="${name}" isExecutable="true">
    <bpmn:startEvent id="start"/>
    <bpmn:sequenceFlow id="toApprove" sourceRef="start" targetRef="approve"/>
    <bpmn:userTask id="approve" name="审批" camunda:assignee="\${applyUser}"/>
    <bpmn:sequenceFlow id="toEnd" sourceRef="approve" targetRef="end"/>
    <bpmn:endEvent id="end"/>
  </bpmn:process>
  <bpmn:process id="caller_${suffix}" name="调用方" isExecutable="false">
    <bpmn:startEvent id="callerStart"/>
    <bpmn:sequenceFlow id="toCall" sourceRef="callerStart" targetRef="call"/>
    <bpmn:callActivity id="call" name="调用审核" calledElement="called_${suffix}"/>
    <bpmn:sequenceFlow id="fromCall" sourceRef="call" targetRef="callerEnd"/>
    <bpmn:endEvent id="callerEnd"/>
  </bpmn:process>
  <bpmn:process id="called_${suffix}" name="被调用的审核" isExecutable="false">
    <bpmn:startEvent id="calledStart"/>
    <bpmn:sequenceFlow id="toCheck" sourceRef="calledStart" targetRef="check"/>
    <bpmn:task id="check" name="审核材料"/>
    <bpmn:sequenceFlow id="toCalledEnd" sourceRef="check" targetRef="calledEnd"/>
    <bpmn:endEvent id="calledEnd"/>
  </bpmn:process>
  <bpmndi:BPMNDiagram id="mainDiagram" name="主流程">
    <bpmndi:BPMNPlane id="mainPlane" bpmnElement="${key}">
      ${shape('start', 100, 102, 36, 36)}${edge('toApprove', 136, 200, 120)}${shape('approve', 200, 80)}
      ${edge('toEnd', 300, 360, 120)}${shape('end', 360, 102, 36, 36)}
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
  <bpmndi:BPMNDiagram id="callerDiagram" name="调用方">
    <bpmndi:BPMNPlane id="callerPlane" bpmnElement="caller_${suffix}">
      ${shape('callerStart', 100, 172, 36, 36)}${edge('toCall', 136, 200, 190)}
      ${shape('call', 200, 80, 360, 220, ' isExpanded="true"')}
      ${shape('calledStart', 230, 172, 36, 36)}${edge('toCheck', 266, 320, 190)}${shape('check', 320, 150)}
      ${edge('toCalledEnd', 420, 480, 190)}${shape('calledEnd', 480, 172, 36, 36)}
      ${edge('fromCall', 560, 620, 190)}${shape('callerEnd', 620, 172, 36, 36)}
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>`;

test('an expanded call activity draws the process it calls', async ({ page, baseURL }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const { access_token } = await adminToken(baseURL!);
  const form = new FormData();
  form.append('category', '2');
  form.append('tenantIds', '');
  form.append('files', new Blob([XML]), 'expanded-call.bpmn');
  const res = await fetch(`${baseURL}/api/dfem-flow/manager/deploy-upload`, {
    method: 'POST',
    headers: { authorization: BASIC, 'blade-auth': `bearer ${access_token}` },
    body: form,
  });
  expect((await res.json()).code).toBe(200);

  const { dialog, canvas } = await openDeployedDiagram(page, key, name);
  const element = (id: string) => canvas.locator(`.djs-element[data-element-id="${id}"]`);
  await choose(dialog, '选择流程图', '调用方');
  await expect(element('call')).toBeVisible();
  // the called process, inside the call activity's box
  for (const id of ['calledStart', 'check', 'calledEnd']) await expect(element(id)).toBeVisible();
  // (a straight flow's box is zero high: drawn is what can be asked of it)
  for (const id of ['toCheck', 'toCalledEnd'])
    await expect(element(id).locator('.djs-visual path').first()).toBeAttached();
  await expect(element('check')).toContainText('审核材料');
  const box = (await element('call').boundingBox())!;
  const inner = (await element('check').boundingBox())!;
  expect(inner.x).toBeGreaterThan(box.x);
  expect(inner.x + inner.width).toBeLessThan(box.x + box.width);
  // drawn expanded: its name at the top, above the content, and no "+" marker
  const label = (await element('call').locator('.djs-label').boundingBox())!;
  expect(label.y + label.height).toBeLessThan(inner.y);
  await expect(element('call').locator('[data-marker="sub-process"]')).toHaveCount(0);
  expect(errors).toEqual([]);
});
