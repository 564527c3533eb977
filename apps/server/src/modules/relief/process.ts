import { RELIEF_PROCESS_KEY, RELIEF_STAGE, timerDue } from '@smart/contracts';
import type { RequestContext } from '../../platform/auth/context';
import { mountedResource } from '../../platform/crud/refs';
import { updateRow } from '../../platform/crud/write';
import { formatDateTime, today } from '../../platform/format';
import { registerFlowAction } from '../flow/actions';

/**
 * The identification of a monitored household (防止返贫动态监测对象识别) on the workflow engine: the village
 * reviews the application (村级评议, `taskUser`), posts a public notice that stays up `noticeDuration`
 * (a durable timer: RELIEF_NOTICE_DURATION, five days), then the township identifies it (乡镇认定,
 * `townshipUser`). Each step moves the household's stage through the action `reliefStage`, which writes
 * through the resource's write path; the fifteen-day clock is read from the application day
 * (contracts reliefClocks).
 */

const stageTask = (id: string, name: string, stage: string, extra = '') =>
  `<serviceTask id="${id}" name="${name}" camunda:type="reliefStage"><extensionElements><camunda:field name="stage" stringValue="${stage}" />${extra}</extensionElements></serviceTask>`;
const ok = `<conditionExpression xsi:type="tFormalExpression">\${flag == 'ok'}</conditionExpression>`;
const notOk = `<conditionExpression xsi:type="tFormalExpression">\${flag != 'ok'}</conditionExpression>`;
const shape = (id: string, x: number, y: number, w = 100, h = 80, marker = false) =>
  `<bpmndi:BPMNShape id="${id}_di" bpmnElement="${id}"${marker ? ' isMarkerVisible="true"' : ''}><dc:Bounds x="${x}" y="${y}" width="${w}" height="${h}" /></bpmndi:BPMNShape>`;
const edge = (id: string, ...points: [number, number][]) =>
  `<bpmndi:BPMNEdge id="${id}_di" bpmnElement="${id}">${points.map(([x, y]) => `<di:waypoint x="${x}" y="${y}" />`).join('')}</bpmndi:BPMNEdge>`;

export const RELIEF_PROCESS_XML = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI"
  xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  id="relief-definitions" targetNamespace="http://smart-admin/flow">
  <process id="${RELIEF_PROCESS_KEY}" name="防返贫监测对象识别" isExecutable="true">
    <startEvent id="start" name="申请" />
    <userTask id="review" name="村级评议" camunda:assignee="\${taskUser}" />
    <exclusiveGateway id="reviewed" name="评议结果" />
    ${stageTask('toNotice', '开始公示', RELIEF_STAGE.notice, '<camunda:field name="until" stringValue="${noticeDuration}" />')}
    <intermediateCatchEvent id="notice" name="公示期">
      <timerEventDefinition><timeDuration xsi:type="tFormalExpression">\${noticeDuration}</timeDuration></timerEventDefinition>
    </intermediateCatchEvent>
    ${stageTask('toTownship', '公示期满', RELIEF_STAGE.township)}
    <userTask id="township" name="乡镇认定" camunda:assignee="\${townshipUser}" />
    <exclusiveGateway id="decided" name="认定结果" />
    ${stageTask('identified', '纳入监测', RELIEF_STAGE.monitored)}
    ${stageTask('notAtVillage', '评议未通过', RELIEF_STAGE.notIdentified)}
    ${stageTask('notAtTownship', '认定未通过', RELIEF_STAGE.notIdentified)}
    <endEvent id="monitored" name="监测中" />
    <endEvent id="refusedAtVillage" name="未纳入" />
    <endEvent id="refusedAtTownship" name="未纳入" />
    <sequenceFlow id="f1" sourceRef="start" targetRef="review" />
    <sequenceFlow id="f2" sourceRef="review" targetRef="reviewed" />
    <sequenceFlow id="passReview" name="通过" sourceRef="reviewed" targetRef="toNotice">${ok}</sequenceFlow>
    <sequenceFlow id="failReview" name="不通过" sourceRef="reviewed" targetRef="notAtVillage">${notOk}</sequenceFlow>
    <sequenceFlow id="f3" sourceRef="toNotice" targetRef="notice" />
    <sequenceFlow id="f4" sourceRef="notice" targetRef="toTownship" />
    <sequenceFlow id="f5" sourceRef="toTownship" targetRef="township" />
    <sequenceFlow id="f6" sourceRef="township" targetRef="decided" />
    <sequenceFlow id="passTownship" name="认定" sourceRef="decided" targetRef="identified">${ok}</sequenceFlow>
    <sequenceFlow id="failTownship" name="不予认定" sourceRef="decided" targetRef="notAtTownship">${notOk}</sequenceFlow>
    <sequenceFlow id="f7" sourceRef="identified" targetRef="monitored" />
    <sequenceFlow id="f8" sourceRef="notAtVillage" targetRef="refusedAtVillage" />
    <sequenceFlow id="f9" sourceRef="notAtTownship" targetRef="refusedAtTownship" />
  </process>
  <bpmndi:BPMNDiagram id="relief-diagram">
    <bpmndi:BPMNPlane id="relief-plane" bpmnElement="${RELIEF_PROCESS_KEY}">
      ${shape('start', 152, 182, 36, 36)}${shape('review', 240, 160)}${shape('reviewed', 395, 175, 50, 50, true)}
      ${shape('toNotice', 490, 160)}${shape('notice', 642, 182, 36, 36)}${shape('toTownship', 730, 160)}
      ${shape('township', 880, 160)}${shape('decided', 1035, 175, 50, 50, true)}${shape('identified', 1130, 160)}
      ${shape('monitored', 1282, 182, 36, 36)}${shape('notAtVillage', 370, 300)}${shape('refusedAtVillage', 522, 322, 36, 36)}
      ${shape('notAtTownship', 1010, 300)}${shape('refusedAtTownship', 1162, 322, 36, 36)}
      ${edge('f1', [188, 200], [240, 200])}${edge('f2', [340, 200], [395, 200])}${edge('passReview', [445, 200], [490, 200])}
      ${edge('failReview', [420, 225], [420, 300])}${edge('f3', [590, 200], [642, 200])}${edge('f4', [678, 200], [730, 200])}
      ${edge('f5', [830, 200], [880, 200])}${edge('f6', [980, 200], [1035, 200])}${edge('passTownship', [1085, 200], [1130, 200])}
      ${edge('failTownship', [1060, 225], [1060, 300])}${edge('f7', [1230, 200], [1282, 200])}
      ${edge('f8', [470, 340], [522, 340])}${edge('f9', [1110, 340], [1162, 340])}
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</definitions>`;

/** The seeded definition's id (every tenant starts the same one). */
export const RELIEF_PROCESS_DEFINITION_ID = `${RELIEF_PROCESS_KEY}:1:seed0001`;

/**
 * `reliefStage`: the household the instance was started for (its businessId) enters `stage`; the notice
 * records its days (from today until the notice's duration `until` has passed), an identification its day.
 * Written through the resource's write path, within the instance's tenant.
 */
registerFlowAction('reliefStage', async (tx, instance, field) => {
  const m = mountedResource('preventionPoverty');
  const stage = String(field('stage') ?? '');
  if (!Object.values(RELIEF_STAGE).includes(stage as never) || !instance.businessId)
    throw new Error(`reliefStage: no stage "${stage}" or no household`);
  const record: Record<string, unknown> = { stage };
  if (stage === RELIEF_STAGE.notice) {
    const until = timerDue('timeDuration', String(field('until') ?? 'P5D'), new Date()).dueAt;
    record.noticeStart = today();
    record.noticeEnd = formatDateTime(until).slice(0, 10);
  }
  if (stage === RELIEF_STAGE.monitored || stage === RELIEF_STAGE.notIdentified) record.identifyDate = today();
  // the process acts for whoever started it, within the instance's tenant
  const actor = {
    tenantId: instance.tenantId,
    userId: instance.startUser ?? '0',
    deptId: instance.createDept ?? '',
    roleIds: [],
    account: '',
    clientId: 'flow',
  } as unknown as RequestContext;
  const row = await updateRow(m, actor, tx, instance.businessId, record, await m.tenantConstraint(actor));
  if (!row) throw new Error(`reliefStage: household ${instance.businessId} is gone`);
  m.changed();
  return {};
});
