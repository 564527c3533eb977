import { describe, expect, it } from 'vitest';
import { bpmnZh, makeTranslate } from './bpmn-zh';

describe('bpmn-js translation', () => {
  it('translates known texts, keeps unknown ones and fills placeholders', () => {
    const zh = makeTranslate(bpmnZh);
    expect(zh('Append user task')).toBe('追加用户任务');
    expect(zh('Something new')).toBe('Something new');
    expect(makeTranslate({ 'Hello {name}': '你好 {name}' })('Hello {name}', { name: '甲' })).toBe('你好 甲');
    expect(makeTranslate({})('Hello {name}')).toBe('Hello {name}');
    for (const v of Object.values(bpmnZh)) expect(v.trim()).not.toBe('');
  });
});
