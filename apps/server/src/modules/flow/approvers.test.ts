// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template strings
import { describe, expect, it } from 'vitest';
import { approverVariables, collectionVariables } from './approvers';

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:flowable="http://flowable.org/bpmn" id="d">
  <bpmn:process id="p" isExecutable="true">${body}</bpmn:process>
</bpmn:definitions>`;

describe('approverVariables', () => {
  it('names the collection of a countersign whose element variable is who gets the task', () => {
    const doc = xml(`<bpmn:startEvent id="s"/>
      <bpmn:userTask id="first" name="初审" camunda:assignee="\${applyUser}"/>
      <bpmn:userTask id="sign" name="会签" camunda:assignee="\${approver}">
        <bpmn:multiInstanceLoopCharacteristics isSequential="true" camunda:collection="\${approvers}" camunda:elementVariable="approver"/>
      </bpmn:userTask>
      <bpmn:userTask id="any" flowable:candidateUsers="#{ signer }">
        <bpmn:multiInstanceLoopCharacteristics flowable:collection="#{assigneeList}" flowable:elementVariable="signer">
          <bpmn:completionCondition>\${nrOfCompletedInstances &gt;= 1}</bpmn:completionCondition>
        </bpmn:multiInstanceLoopCharacteristics>
      </bpmn:userTask>`);
    expect([...approverVariables(doc)].sort()).toEqual(['approvers', 'assigneeList']);
  });

  it('leaves out lists of anything else: a task per document for one holder, a sub-process, a comment', () => {
    const doc = xml(`<bpmn:startEvent id="s"/>
      <!-- <bpmn:userTask id="ghost" camunda:assignee="\${x}"><bpmn:multiInstanceLoopCharacteristics camunda:collection="\${ghosts}" camunda:elementVariable="x"/></bpmn:userTask> -->
      <bpmn:userTask id="docs" name="逐份审阅" camunda:assignee="\${applyUser}">
        <bpmn:multiInstanceLoopCharacteristics camunda:collection="\${documents}" camunda:elementVariable="document"/>
      </bpmn:userTask>
      <bpmn:subProcess id="each">
        <bpmn:multiInstanceLoopCharacteristics camunda:collection="\${households}" camunda:elementVariable="household"/>
        <bpmn:userTask id="visit" camunda:assignee="\${household}"/>
      </bpmn:subProcess>`);
    expect(approverVariables(doc)).toEqual(new Set());
    // the start routes' lists (any collection of the diagram) leave the comment out too
    expect([...collectionVariables(doc)].sort()).toEqual(['documents', 'households']);
  });
});
