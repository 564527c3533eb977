// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template strings
import { describe, expect, it } from 'vitest';
import { countersignsAfter } from './countersigns';

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
      { taskId: 'sign', name: '会签审批', variable: 'approvers', kind: 'all', sequential: false },
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
      { taskId: 'sign', name: '或签', variable: 'signers', kind: 'any', sequential: false },
    ]);
    expect(countersignsAfter(doc, ['sign'])).toEqual([
      { taskId: 'half', name: '过半', variable: 'board', kind: 'share', sequential: false },
    ]);
  });

  it('reads Flowable’s attributes, #{…} and isSequential, and ignores a fixed count or a process without countersign', () => {
    const flowable = xml(`<bpmn:startEvent id="s"/><bpmn:sequenceFlow id="f" sourceRef="s" targetRef="t"/>
      <bpmn:userTask id="t" flowable:assignee="\${a}">
        <bpmn:multiInstanceLoopCharacteristics isSequential="true" flowable:collection="#{ assigneeList }" flowable:elementVariable="a"/>
      </bpmn:userTask>`);
    expect(countersignsAfter(flowable)).toEqual([
      { taskId: 't', name: 't', variable: 'assigneeList', kind: 'all', sequential: true },
    ]);
    const fixed = xml(`<bpmn:startEvent id="s"/><bpmn:sequenceFlow id="f" sourceRef="s" targetRef="t"/>
      <bpmn:userTask id="t"><bpmn:multiInstanceLoopCharacteristics>
        <bpmn:loopCardinality>3</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics></bpmn:userTask>`);
    expect(countersignsAfter(fixed)).toEqual([]);
    expect(countersignsAfter(xml('<bpmn:startEvent id="s"/>'))).toEqual([]);
    expect(countersignsAfter(undefined)).toEqual([]);
    expect(countersignsAfter('not xml')).toEqual([]);
  });

  it('a multi-instance sub-process or call activity over a list of users: picked before it, as the engine runs it', () => {
    const doc = xml(`<bpmn:startEvent id="s"/>
      <bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="rounds"/>
      <bpmn:subProcess id="rounds" name="逐人审核">
        <bpmn:multiInstanceLoopCharacteristics camunda:collection="\${reviewers}" camunda:elementVariable="reviewer"/>
        <bpmn:startEvent id="rs"/><bpmn:sequenceFlow id="r1" sourceRef="rs" targetRef="inner"/>
        ${sign('inner', '内部会签', 'inside')}
      </bpmn:subProcess>
      <bpmn:sequenceFlow id="f2" sourceRef="rounds" targetRef="call"/>
      <bpmn:callActivity id="call" name="逐人调用" calledElement="child">
        <bpmn:multiInstanceLoopCharacteristics isSequential="true" flowable:collection="#{checkers}" flowable:elementVariable="checker"/>
      </bpmn:callActivity>
      <bpmn:sequenceFlow id="f3" sourceRef="call" targetRef="e"/><bpmn:endEvent id="e"/>`);
    // the start form picks the sub-process's list (not what is inside it: steps of its own pick for those)
    expect(countersignsAfter(doc)).toEqual([
      { taskId: 'rounds', name: '逐人审核', variable: 'reviewers', kind: 'each', sequential: false },
    ]);
    expect(countersignsAfter(doc, ['rounds'])).toEqual([
      { taskId: 'call', name: '逐人调用', variable: 'checkers', kind: 'each', sequential: true },
    ]);
    // one that runs once stops the walk and asks for nothing
    const once = xml(`<bpmn:startEvent id="s"/><bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="call"/>
      <bpmn:callActivity id="call" calledElement="child"/>
      <bpmn:sequenceFlow id="f2" sourceRef="call" targetRef="t"/>${sign('t', '会签', 'later')}`);
    expect(countersignsAfter(once)).toEqual([]);
  });

  it('a task inside a sub-process picks for the countersign after it within the sub-process', () => {
    const doc = xml(`<bpmn:startEvent id="s"/>
      <bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="sub"/>
      <bpmn:subProcess id="sub" name="村内审核">
        <bpmn:startEvent id="ss"/><bpmn:sequenceFlow id="s1" sourceRef="ss" targetRef="check"/>
        <bpmn:userTask id="check" name="初核"/>
        <bpmn:sequenceFlow id="s2" sourceRef="check" targetRef="gw"/><bpmn:exclusiveGateway id="gw"/>
        <bpmn:sequenceFlow id="s3" sourceRef="gw" targetRef="board"/>
        ${sign('board', '两委会签', 'committee')}
      </bpmn:subProcess>
      <bpmn:sequenceFlow id="f2" sourceRef="sub" targetRef="e"/><bpmn:endEvent id="e"/>`);
    // the start form has nothing to pick (the sub-process's own step comes first)
    expect(countersignsAfter(doc)).toEqual([]);
    expect(countersignsAfter(doc, ['check'])).toEqual([
      { taskId: 'board', name: '两委会签', variable: 'committee', kind: 'all', sequential: false },
    ]);
  });
});
