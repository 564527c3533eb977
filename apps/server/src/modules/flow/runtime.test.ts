// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}
import { describe, expect, it } from 'vitest';
import { continueProcess, startProcess } from './runtime';

const XML = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  id="saved_state" targetNamespace="http://example.com/test">
  <process id="twoSteps" name="两步" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="first"/>
    <userTask id="first" name="第一步" flowable:assignee="\${applyUser}"/>
    <sequenceFlow id="f2" sourceRef="first" targetRef="second"/>
    <userTask id="second" name="第二步" flowable:assignee="\${applyUser}"/>
    <sequenceFlow id="f3" sourceRef="second" targetRef="e"/><endEvent id="e"/>
  </process>
</definitions>`;

const task = (run: Awaited<ReturnType<typeof startProcess>>) => run.waiting[run.waiting.length - 1];

describe('saved engine state', () => {
  it('leaves the diagram out (it is read once per diagram) and recovers from it', async () => {
    const started = await startProcess('p1', XML, { applyUser: '7' });
    const state = JSON.parse(started.state);
    expect(state.definitions).toHaveLength(1);
    expect(state.definitions[0].source).toBeUndefined();
    expect(started.state).not.toContain('第二步');
    const first = task(started);
    expect(first.activityId).toBe('first');
    const moved = await continueProcess(
      'p1',
      XML,
      started.state,
      { kind: 'execution', executionId: first.executionId, output: {} },
      { applyUser: '7' },
    );
    expect(task(moved).activityId).toBe('second');
    const done = await continueProcess(
      'p1',
      XML,
      moved.state,
      { kind: 'execution', executionId: task(moved).executionId, output: {} },
      { applyUser: '7' },
    );
    expect(done.ended).toBe(true);
  });

  it('a state saved with its diagram (before the diagram was left out) still recovers from that diagram', async () => {
    const { Engine } = (await import('bpmn-engine')) as unknown as {
      Engine: new (o: object) => { getState(): Promise<{ definitions: { source?: string }[] }> };
    };
    const started = await startProcess('p2', XML, { applyUser: '7' });
    // what the engine itself writes for this diagram: the source the earlier states carried
    const [withSource] = (await new Engine({ source: XML }).getState()).definitions;
    expect(withSource.source).toContain('第二步');
    const old = JSON.parse(started.state);
    old.definitions[0].source = withSource.source;
    // recovered from the state's own diagram: a different diagram given beside it is not used
    const other = XML.replace('第二步', '另一步');
    const moved = await continueProcess(
      'p2',
      other,
      JSON.stringify(old),
      { kind: 'execution', executionId: task(started).executionId, output: {} },
      { applyUser: '7' },
    );
    expect(task(moved).name).toBe('第二步');
  });
});
