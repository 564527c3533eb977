// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template strings
import { describe, expect, it } from 'vitest';
import { checkCalledElement, checkMappings, mappingsOf, mappingsUpdate } from './call-activity';
import { load } from './moddle-test-kit';

describe('call activity mappings', () => {
  it('writes camunda:in / camunda:out as the server reads them, and reads them back', async () => {
    const doc = await load('<bpmn:callActivity id="c" calledElement="child" />', 'c');
    doc.apply(
      mappingsUpdate(doc.moddle, doc.el, 'in', {
        all: true,
        items: [
          { source: 'days', target: 'leaveDays' },
          { source: '${days * 2}', target: 'double' },
        ],
      }),
    );
    doc.apply(
      mappingsUpdate(doc.moddle, doc.el, 'out', { all: false, items: [{ source: 'ok', target: 'childOk' }] }),
    );
    const xml = await doc.xml();
    expect(xml).toContain('<camunda:in variables="all" />');
    expect(xml).toContain('<camunda:in source="days" target="leaveDays" />');
    expect(xml).toContain('<camunda:in sourceExpression="${days * 2}" target="double" />');
    expect(xml).toContain('<camunda:out source="ok" target="childOk" />');
    const again = await doc.reread();
    expect(mappingsOf(again, 'in')).toEqual({
      all: true,
      items: [
        { source: 'days', target: 'leaveDays' },
        { source: '${days * 2}', target: 'double' },
      ],
    });
    expect(mappingsOf(again, 'out')).toEqual({ all: false, items: [{ source: 'ok', target: 'childOk' }] });
    // one direction replaced, the other kept
    doc.apply(mappingsUpdate(doc.moddle, doc.el, 'in', { all: false, items: [] }));
    const third = await doc.reread();
    expect(mappingsOf(third, 'in')).toEqual({ all: false, items: [] });
    expect(mappingsOf(third, 'out').items).toHaveLength(1);
    doc.apply(mappingsUpdate(doc.moddle, doc.el, 'out', { all: false, items: [] }));
    expect(await doc.xml()).not.toContain('extensionElements');
  });

  it('reads Flowable mappings too', async () => {
    const { el } = await load(
      `<bpmn:callActivity id="c" calledElement="child">
        <bpmn:extensionElements><flowable:in source="a" target="b" /><flowable:out variables="all" /></bpmn:extensionElements>
      </bpmn:callActivity>`,
      'c',
    );
    expect(mappingsOf(el, 'in')).toEqual({ all: false, items: [{ source: 'a', target: 'b' }] });
    expect(mappingsOf(el, 'out')).toEqual({ all: true, items: [] });
  });

  it('checks each mapping and the called key', () => {
    expect(
      checkMappings([
        { source: 'a', target: 'b' },
        { source: '', target: '' },
        { source: '${x ==}', target: 'my var' },
      ]),
    ).toEqual([
      { source: null, target: null },
      { source: { kind: 'required' }, target: { kind: 'required' } },
      { source: { kind: 'expression', error: { kind: 'unexpectedEnd' } }, target: { kind: 'identifier' } },
    ]);
    expect(checkCalledElement('')).toEqual({ kind: 'required' });
    expect(checkCalledElement('leave_apply')).toBeNull();
    expect(checkCalledElement('${child}')).toBeNull();
    expect(checkCalledElement('two words')).toEqual({ kind: 'identifier' });
  });
});
