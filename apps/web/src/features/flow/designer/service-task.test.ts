// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template strings
import { describe, expect, it } from 'vitest';
import { load } from './moddle-test-kit';
import {
  ACTION_FIELDS,
  ACTION_NAMES,
  actionOf,
  actionProblem,
  actionUpdate,
  checkRecipients,
  checkResultVariable,
  checkUrl,
  checkVariables,
  fieldsUpdate,
  withField,
} from './service-task';

describe('service task actions', () => {
  it('offers exactly the actions of the server registry, with the fields actions.ts reads', () => {
    expect([...ACTION_NAMES]).toEqual(['notice', 'variables', 'http']);
    expect(ACTION_FIELDS.notice).toEqual(['to', 'title']);
    expect(ACTION_FIELDS.http).toEqual(['url', 'method', 'body', 'resultVariable']);
  });

  it('writes camunda:type and camunda:field elements, and reads them back as the server does', async () => {
    const doc = await load('<bpmn:serviceTask id="s" name="通知" />', 's');
    doc.apply(actionUpdate(doc.moddle, doc.el, 'notice'));
    let fields = withField([], 'to', '1,${applyUser}');
    fields = withField(fields, 'title', '请假已批准');
    doc.apply(fieldsUpdate(doc.moddle, doc.el, fields));
    const xml = await doc.xml();
    expect(xml).toContain('camunda:type="notice"');
    expect(xml).toContain('<camunda:field name="to" stringValue="1,${applyUser}" />');
    expect(xml).toContain('<camunda:field name="title" stringValue="请假已批准" />');
    const again = await doc.reread();
    expect(actionOf(again)).toEqual({
      action: 'notice',
      fields: [
        { name: 'to', value: '1,${applyUser}' },
        { name: 'title', value: '请假已批准' },
      ],
    });
    // the server's actionOf reads camunda's type property (`type`) and the field's stringValue
    expect(again.type).toBe('notice');
    expect(again.extensionElements.values.map((v: { $type: string }) => v.$type)).toEqual([
      'camunda:Field',
      'camunda:Field',
    ]);
  });

  it('reads what other dialects wrote, in the server order (a prefix attribute beats camunda:type)', async () => {
    const { el } = await load(
      `<bpmn:sendTask id="s" camunda:type="variables" flowable:type="http">
        <bpmn:extensionElements>
          <flowable:field name="url"><flowable:string>https://a.example/x</flowable:string></flowable:field>
          <camunda:field name="body"><camunda:expression>\${payload}</camunda:expression></camunda:field>
        </bpmn:extensionElements>
      </bpmn:sendTask>`,
      's',
    );
    expect(actionOf(el)).toEqual({
      action: 'http',
      fields: [
        { name: 'url', value: 'https://a.example/x' },
        { name: 'body', value: '${payload}' },
      ],
    });
  });

  it('choosing an action clears what would override or replace it, and keeps the fields it reads', async () => {
    const doc = await load(
      `<bpmn:businessRuleTask id="b" flowable:type="http" camunda:class="com.example.Bean">
        <bpmn:extensionElements>
          <camunda:field name="url" stringValue="https://a.example/x" />
          <camunda:field name="title" stringValue="x" />
          <camunda:inputOutput><camunda:inputParameter name="a">1</camunda:inputParameter></camunda:inputOutput>
        </bpmn:extensionElements>
      </bpmn:businessRuleTask>`,
      'b',
    );
    doc.apply(actionUpdate(doc.moddle, doc.el, 'notice'));
    const again = await doc.reread();
    expect(again.$attrs['flowable:type']).toBeUndefined();
    expect(again.get('camunda:class')).toBeUndefined();
    expect(actionOf(again)).toEqual({ action: 'notice', fields: [{ name: 'title', value: 'x' }] });
    // other extensions stay
    expect(again.extensionElements.values.map((v: { $type: string }) => v.$type)).toEqual([
      'camunda:InputOutput',
      'camunda:Field',
    ]);
    // no action at all: nothing names one
    doc.apply(actionUpdate(doc.moddle, doc.el, undefined));
    expect(actionOf(await doc.reread())).toEqual({ action: undefined, fields: [] });
  });

  it('a variables action keeps every row, even one still without a name', async () => {
    const doc = await load('<bpmn:serviceTask id="s" />', 's');
    doc.apply(actionUpdate(doc.moddle, doc.el, 'variables'));
    doc.apply(
      fieldsUpdate(doc.moddle, doc.el, [
        { name: 'approved', value: 'true' },
        { name: '', value: '' },
      ]),
    );
    expect(actionOf(await doc.reread()).fields).toEqual([
      { name: 'approved', value: 'true' },
      { name: '', value: '' },
    ]);
  });

  it('withField sets, replaces in place and removes', () => {
    const a = withField(withField([], 'url', 'x'), 'method', 'GET');
    expect(withField(a, 'url', 'y')).toEqual([
      { name: 'url', value: 'y' },
      { name: 'method', value: 'GET' },
    ]);
    expect(withField(a, 'url', '')).toEqual([{ name: 'method', value: 'GET' }]);
  });
});

describe('service task checks', () => {
  it('an http address is required and written http(s)://… or ${…}', () => {
    expect(checkUrl('')).toEqual({ kind: 'required' });
    expect(checkUrl('example.com/x')).toEqual({ kind: 'url' });
    expect(checkUrl('ftp://example.com')).toEqual({ kind: 'url' });
    expect(checkUrl('https://')).toEqual({ kind: 'url' });
    expect(checkUrl('https://example.com/hook?a=1')).toBeNull();
    expect(checkUrl('${hookUrl}')).toBeNull();
    expect(checkUrl('${hook')).toEqual({ kind: 'expression', error: { kind: 'notWrapped' } });
  });

  it('a notice needs recipients; expressions among them are checked', () => {
    expect(checkRecipients(' ')).toEqual({ kind: 'required' });
    expect(checkRecipients('1,${applyUser}')).toBeNull();
    expect(checkRecipients('${a ==}')?.kind).toBe('expression');
  });

  it('variable names are identifiers, not what the applicant wrote, and once each', () => {
    expect(
      checkVariables([
        { name: 'ok', value: '${days > 3}' },
        { name: '', value: '' },
        { name: '2x', value: '' },
        { name: 'title', value: '' },
        { name: 'ok', value: '${' },
      ]),
    ).toEqual([
      { name: null, value: null },
      { name: { kind: 'required' }, value: null },
      { name: { kind: 'identifier' }, value: null },
      { name: { kind: 'locked', name: 'title' }, value: null },
      {
        name: { kind: 'duplicate', name: 'ok' },
        value: { kind: 'expression', error: { kind: 'notWrapped' } },
      },
    ]);
    expect(checkResultVariable('')).toBeNull();
    expect(checkResultVariable('status code')).toEqual({ kind: 'identifier' });
  });

  it('actionProblem finds what would stop the action from running', async () => {
    const doc = await load('<bpmn:serviceTask id="s" />', 's');
    expect(actionProblem(doc.el)).toBeNull();
    doc.apply(actionUpdate(doc.moddle, doc.el, 'http'));
    expect(actionProblem(doc.el)).toEqual({ kind: 'required' });
    doc.apply(fieldsUpdate(doc.moddle, doc.el, [{ name: 'url', value: 'https://a.example/x' }]));
    expect(actionProblem(doc.el)).toBeNull();
  });
});
