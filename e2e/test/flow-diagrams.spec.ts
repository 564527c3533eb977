import { authFile, expect, test } from './fixtures';
import { choose, openDeployedDiagram } from './flow-helpers';
import { adminToken, BASIC } from './shell-helpers';

/**
 * A file with several top-level diagrams (here the executable process and a reference process beside it,
 * each drawn on its own diagram): 部署管理's 流程图 offers a switch, and each diagram is drawn when chosen.
 */
test.use({ storageState: authFile() });

const suffix = Date.now().toString(36);
const key = `two_diagrams_${suffix}`;
const name = `两张图 ${suffix}`;

const shape = (id: string, x: number) =>
  `<bpmndi:BPMNShape id="${id}_di" bpmnElement="${id}"><dc:Bounds x="${x}" y="80" width="100" height="80"/></bpmndi:BPMNShape>`;
const edge = (id: string, x1: number, x2: number) =>
  `<bpmndi:BPMNEdge id="${id}_di" bpmnElement="${id}"><di:waypoint x="${x1}" y="120"/><di:waypoint x="${x2}" y="120"/></bpmndi:BPMNEdge>`;

const XML = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC"
  xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="defs" targetNamespace="http://example.com">
  <bpmn:process id="${key}" name="${name}" isExecutable="true">
    <bpmn:startEvent id="start"/>
    <bpmn:sequenceFlow id="toApprove" sourceRef="start" targetRef="approve"/>
    <bpmn:userTask id="approve" name="审批" camunda:assignee="\${taskUser}"/>
    <bpmn:sequenceFlow id="toEnd" sourceRef="approve" targetRef="end"/>
    <bpmn:endEvent id="end"/>
  </bpmn:process>
  <bpmn:process id="reference_${suffix}" name="参考流程" isExecutable="false">
    <bpmn:task id="archive" name="归档"/>
    <bpmn:sequenceFlow id="toNotify" sourceRef="archive" targetRef="notify"/>
    <bpmn:task id="notify" name="通知"/>
  </bpmn:process>
  <bpmndi:BPMNDiagram id="mainDiagram" name="主流程">
    <bpmndi:BPMNPlane id="mainPlane" bpmnElement="${key}">
      ${shape('start', 100)}${edge('toApprove', 200, 250)}${shape('approve', 250)}${edge('toEnd', 350, 400)}${shape('end', 400)}
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
  <bpmndi:BPMNDiagram id="referenceDiagram" name="参考流程图">
    <bpmndi:BPMNPlane id="referencePlane" bpmnElement="reference_${suffix}">
      ${shape('archive', 100)}${edge('toNotify', 200, 250)}${shape('notify', 250)}
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>`;

test('a file with two diagrams offers a switch in 流程图, and draws each one chosen', async ({
  page,
  baseURL,
}) => {
  const { access_token } = await adminToken(baseURL!);
  const form = new FormData();
  form.append('category', '2');
  form.append('tenantIds', '');
  form.append('files', new Blob([XML]), 'two-diagrams.bpmn');
  const res = await fetch(`${baseURL}/api/dfem-flow/manager/deploy-upload`, {
    method: 'POST',
    headers: { authorization: BASIC, 'blade-auth': `bearer ${access_token}` },
    body: form,
  });
  expect((await res.json()).code).toBe(200);

  const { dialog, canvas } = await openDeployedDiagram(page, key, name);
  const element = (id: string) => canvas.locator(`.djs-element[data-element-id="${id}"]`);
  await expect(element('approve')).toBeVisible();
  await expect(element('archive')).toHaveCount(0);

  await choose(dialog, '选择流程图', '参考流程图');
  await expect(element('archive')).toBeVisible();
  await expect(element('notify')).toBeVisible();
  await expect(element('approve')).toHaveCount(0);

  await choose(dialog, '选择流程图', '主流程');
  await expect(element('approve')).toBeVisible();
});
