// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}
import { describe, expect, it } from 'vitest';
import { libraryJoin } from './join';
import { keepLiveEngines } from './live';
import { continueProcess, startProcess } from './run';

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
    // no engine kept in memory: every step recovers from the saved state
    keepLiveEngines(0);
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
    keepLiveEngines(200);
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

  it('an engine kept in memory continues only from the state it saved, and as a recovered one would', async () => {
    keepLiveEngines(200);
    // two tasks at once: a recovery announces the one still waiting again, a kept engine does not
    const BOTH = XML.replace(
      '<sequenceFlow id="f2" sourceRef="first" targetRef="second"/>',
      '<sequenceFlow id="f2" sourceRef="first" targetRef="e"/><sequenceFlow id="f0" sourceRef="s" targetRef="second"/>',
    ).replace(
      '<sequenceFlow id="f3" sourceRef="second" targetRef="e"/><endEvent id="e"/>',
      '<sequenceFlow id="f3" sourceRef="second" targetRef="e2"/><endEvent id="e"/><endEvent id="e2"/>',
    );
    const started = await startProcess('p3', BOTH, { applyUser: '7' });
    expect(started.waiting.map((w) => w.activityId).sort()).toEqual(['first', 'second']);
    const first = started.waiting.find((w) => w.activityId === 'first')?.executionId as string;
    const step = { kind: 'execution' as const, executionId: first, output: {} };
    // kept: the next step continues it, and reports nothing new waiting
    const kept = await continueProcess('p3', BOTH, started.state, step, { applyUser: '7' });
    expect(kept.waiting).toEqual([]);
    expect(kept.ended).toBe(false);
    // the same step again from the state the database still holds (as after a rollback): the kept engine
    // has moved on, so it is recovered from that state, announcing the task still waiting again
    const again = await continueProcess('p3', BOTH, started.state, step, { applyUser: '7' });
    expect(again.waiting.map((w) => w.activityId)).toEqual(['second']);
    expect(again.stillWaiting).toEqual(kept.stillWaiting);
    // and that engine is kept in turn for its own state
    const second = again.waiting[0].executionId;
    const done = await continueProcess(
      'p3',
      BOTH,
      again.state,
      { kind: 'execution', executionId: second, output: {} },
      { applyUser: '7' },
    );
    expect(done.ended).toBe(true);
    expect(done.state).toBe('');
  });
});

/** an optional step (补充) an exclusive gateway skips, then a parallel split and join, then a last step */
const SKIPPED = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="defs_skipped" targetNamespace="http://example.com/test">
  <process id="skipped" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="x1"/>
    <exclusiveGateway id="x1" default="more"/>
    <sequenceFlow id="skip" sourceRef="x1" targetRef="x2"><conditionExpression xsi:type="tFormalExpression">\${pass == true}</conditionExpression></sequenceFlow>
    <sequenceFlow id="more" sourceRef="x1" targetRef="extra"/>
    <userTask id="extra" name="补充" flowable:assignee="\${applyUser}"/><sequenceFlow id="f2" sourceRef="extra" targetRef="x2"/>
    <exclusiveGateway id="x2"/><sequenceFlow id="f3" sourceRef="x2" targetRef="p1"/>
    <parallelGateway id="p1"/><sequenceFlow id="f4" sourceRef="p1" targetRef="a"/><sequenceFlow id="f5" sourceRef="p1" targetRef="b"/>
    <userTask id="a" name="甲" flowable:assignee="\${applyUser}"/><userTask id="b" name="乙" flowable:assignee="\${applyUser}"/>
    <sequenceFlow id="f6" sourceRef="a" targetRef="p2"/><sequenceFlow id="f7" sourceRef="b" targetRef="p2"/>
    <parallelGateway id="p2"/><sequenceFlow id="f8" sourceRef="p2" targetRef="last"/>
    <userTask id="last" name="终" flowable:assignee="\${applyUser}"/><sequenceFlow id="f9" sourceRef="last" targetRef="e"/>
    <endEvent id="e"/>
  </process>
</definitions>`;

/** runs SKIPPED with pass=true through 甲, 乙 and 终, every step recovered from its saved state */
async function runSkipped(name: string) {
  const vars = { applyUser: '7', pass: true };
  let run = await startProcess(name, SKIPPED, vars);
  const seen = [...run.waiting];
  for (const id of ['a', 'b', 'last']) {
    const at = seen.find((w) => w.activityId === id);
    expect(at, id).toBeDefined();
    run = await continueProcess(
      name,
      SKIPPED,
      run.state,
      { kind: 'execution', executionId: at?.executionId as string, output: {} },
      vars,
    );
    seen.push(...run.waiting);
  }
  return run;
}

describe('a join after a skipped step', () => {
  it('pairs one arrival per source: the process itself ends', async () => {
    keepLiveEngines(0);
    const done = await runSkipped('j1');
    expect(done.ended).toBe(true);
    expect(done.history.some((h) => h.activityId === 'e' && h.kind === 'end')).toBe(true);
    keepLiveEngines(200);
  });

  it('with bpmn-elements’ own counting (which left an arrival pending for ever) the instance still ends', async () => {
    keepLiveEngines(0);
    const { Activity } = (await import('bpmn-elements')) as unknown as {
      Activity: { prototype: { _onJoinInbound: unknown } };
    };
    await startProcess('j0', SKIPPED, { applyUser: '7' }); // (the patches are loaded with the first run)
    const ours = Activity.prototype._onJoinInbound;
    Activity.prototype._onJoinInbound = libraryJoin;
    try {
      const done = await runSkipped('j2');
      // nothing waits but an arrival on a flow: ended, whatever the engine says
      expect(done.ended).toBe(true);
      expect(done.waiting).toEqual([]);
    } finally {
      Activity.prototype._onJoinInbound = ours;
      keepLiveEngines(200);
    }
  });
});

/** an exclusive split whose branches a parallel join meets again (bpmn-elements' dead path elimination) */
const SPLIT_JOIN = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="defs_split_join" targetNamespace="http://example.com/test">
  <process id="splitJoin" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="x"/>
    <exclusiveGateway id="x" default="toB"/>
    <sequenceFlow id="toA" sourceRef="x" targetRef="a"><conditionExpression xsi:type="tFormalExpression">\${pass == true}</conditionExpression></sequenceFlow>
    <sequenceFlow id="toB" sourceRef="x" targetRef="b"/>
    <task id="a"/><task id="b"/>
    <sequenceFlow id="fa" sourceRef="a" targetRef="j"/><sequenceFlow id="fb" sourceRef="b" targetRef="j"/>
    <parallelGateway id="j"/><sequenceFlow id="f2" sourceRef="j" targetRef="last"/>
    <userTask id="last" name="终" flowable:assignee="\${applyUser}"/><sequenceFlow id="f3" sourceRef="last" targetRef="e"/>
    <endEvent id="e"/>
  </process>
</definitions>`;

describe('discards', () => {
  it('the leave process: the approval ends it, the rejection path is not walked', async () => {
    const { LEAVE_PROCESS_XML } = await import('../leave-process');
    const { discardHeard } = await import('./discards');
    const vars = { applyUser: '7', taskUser: '8' };
    const started = await startProcess('d1', LEAVE_PROCESS_XML, vars);
    expect(task(started).activityId).toBe('approve');
    const done = await continueProcess(
      'd1',
      LEAVE_PROCESS_XML,
      started.state,
      { kind: 'execution', executionId: task(started).executionId, output: { flag: 'ok' } },
      vars,
    );
    expect(done.ended).toBe(true);
    expect(done.history.map((h) => `${h.kind}:${h.activityId}`)).toEqual([
      'end:approve',
      'end:toDecision',
      'start:decision',
      'end:decision',
      'end:pass',
      'start:approved',
      'end:approved',
    ]);
    // no join, no link: no discard of this diagram is heard anywhere
    const { sourceOf } = await import('./engine');
    const diagram = await sourceOf(LEAVE_PROCESS_XML);
    for (const id of ['adjust', 'resubmit', 'approve', 'decision', 'approved', 'withdrawn'])
      expect(discardHeard(diagram, id), id).toBe(false);
    // rejected, it still goes round to 调整申请
    const again = await startProcess('d2', LEAVE_PROCESS_XML, vars);
    const rejected = await continueProcess(
      'd2',
      LEAVE_PROCESS_XML,
      again.state,
      { kind: 'execution', executionId: task(again).executionId, output: { flag: 'reject' } },
      vars,
    );
    expect(rejected.waiting.map((w) => w.activityId)).toEqual(['adjust']);
  });

  it('a discard that a join ahead waits for still reaches it, either branch taken, recovered or kept', async () => {
    const { discardHeard } = await import('./discards');
    const { sourceOf } = await import('./engine');
    const diagram = await sourceOf(SPLIT_JOIN);
    for (const id of ['a', 'b', 'j']) expect(discardHeard(diagram, id), id).toBe(true);
    expect(discardHeard(diagram, 'last')).toBe(false);
    for (const [name, pass, live] of [
      ['sj1', true, 200],
      ['sj2', false, 200],
      ['sj3', true, 0],
    ] as const) {
      keepLiveEngines(live);
      const vars = { applyUser: '7', pass };
      const started = await startProcess(name, SPLIT_JOIN, vars);
      expect(started.waiting.map((w) => w.activityId)).toEqual(['last']);
      const done = await continueProcess(
        name,
        SPLIT_JOIN,
        started.state,
        { kind: 'execution', executionId: task(started).executionId, output: {} },
        vars,
      );
      expect(done.ended).toBe(true);
    }
    keepLiveEngines(200);
  });
});
