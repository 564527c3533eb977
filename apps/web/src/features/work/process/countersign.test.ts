// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template strings
import { describe, expect, it } from 'vitest';
import { countersignsAfter } from './countersign';

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment with <userTask id="ghost"/> in it -->
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:flowable="http://flowable.org/bpmn" id="d">
  <bpmn:process id="p" isExecutable="true">${body}</bpmn:process>
</bpmn:definitions>`;

const sign = (id: string, name: string, variable: string, condition = '') =>
  `<bpmn:userTask id="${id}" name="${name}" camunda:assignee="\${approver}">
    <bpmn:multiInstanceLoopCharacteristics camunda:collection="\${${variable}}" camunda:elementVariable="approver">
      ${condition ? `<bpmn:completionCondition xsi:type="bpmn:tFormalExpression">${condition}</bpmn:completionCondition>` : ''}
    </bpmn:multiInstanceLoopCharacteristics>
  </bpmn:userTask>`;

describe('countersignsAfter', () => {
  it('finds the countersign the start event reaches, with its variable and kind', () => {
    const doc = xml(`<bpmn:startEvent id="s"/>
      <bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="g"/>
      <bpmn:exclusiveGateway id="g"/>
      <bpmn:sequenceFlow id="f2" sourceRef="g" targetRef="sign"/>
      ${sign('sign', '会签审批', 'approvers')}
      <bpmn:sequenceFlow id="f3" sourceRef="sign" targetRef="e"/><bpmn:endEvent id="e"/>`);
    expect(countersignsAfter(doc)).toEqual([
      { taskId: 'sign', name: '会签审批', variable: 'approvers', kind: 'all' },
    ]);
  });

  it('stops at a user task: its handler picks for the countersign after it', () => {
    const doc = xml(`<bpmn:startEvent id="s"/>
      <bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="pick"/>
      <bpmn:userTask id="pick" name="选择会签人" camunda:assignee="\${applyUser}"/>
      <bpmn:sequenceFlow id="f2" sourceRef="pick" targetRef="sign"/>
      ${sign('sign', '或签', 'signers', '${nrOfCompletedInstances &gt;= 1}')}
      <bpmn:sequenceFlow id="f3" sourceRef="sign" targetRef="half"/>
      ${sign('half', '过半', 'board', '<![CDATA[${nrOfCompletedInstances * 2 >= nrOfInstances}]]>')}
      <bpmn:sequenceFlow id="f4" sourceRef="half" targetRef="e"/><bpmn:endEvent id="e"/>`);
    expect(countersignsAfter(doc)).toEqual([]);
    expect(countersignsAfter(doc, ['pick'])).toEqual([
      { taskId: 'sign', name: '或签', variable: 'signers', kind: 'any' },
    ]);
    expect(countersignsAfter(doc, ['sign'])).toEqual([
      { taskId: 'half', name: '过半', variable: 'board', kind: 'share' },
    ]);
  });

  it('reads Flowable’s attributes and #{…}, and ignores a fixed count or a process without countersign', () => {
    const flowable = xml(`<bpmn:startEvent id="s"/><bpmn:sequenceFlow id="f" sourceRef="s" targetRef="t"/>
      <bpmn:userTask id="t" flowable:assignee="\${a}">
        <bpmn:multiInstanceLoopCharacteristics flowable:collection="#{ assigneeList }" flowable:elementVariable="a"/>
      </bpmn:userTask>`);
    expect(countersignsAfter(flowable)).toEqual([
      { taskId: 't', name: 't', variable: 'assigneeList', kind: 'all' },
    ]);
    const fixed = xml(`<bpmn:startEvent id="s"/><bpmn:sequenceFlow id="f" sourceRef="s" targetRef="t"/>
      <bpmn:userTask id="t"><bpmn:multiInstanceLoopCharacteristics>
        <bpmn:loopCardinality>3</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics></bpmn:userTask>`);
    expect(countersignsAfter(fixed)).toEqual([]);
    expect(countersignsAfter(xml('<bpmn:startEvent id="s"/>'))).toEqual([]);
    expect(countersignsAfter(undefined)).toEqual([]);
    expect(countersignsAfter('not xml')).toEqual([]);
  });
});
