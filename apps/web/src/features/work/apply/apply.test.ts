import { describe, expect, it } from 'vitest';
import { needsApprover } from './apply';

describe('the application form', () => {
  it('asks for an approver when a task of the diagram is `${taskUser}`’s', () => {
    expect(needsApprover('<userTask camunda:assignee="${taskUser}" />')).toBe(true);
    expect(needsApprover('<userTask camunda:candidateUsers="${ taskUser },1" />')).toBe(true);
    expect(needsApprover('<userTask camunda:candidateGroups="finance" />')).toBe(false);
    expect(needsApprover('<userTask camunda:assignee="${applyUser}" />')).toBe(false);
    expect(needsApprover(undefined)).toBe(false);
  });
});
