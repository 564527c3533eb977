// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template strings
import { describe, expect, it } from 'vitest';
import { checkExpression, checkList } from './bpmn-expression';

describe('designer expressions', () => {
  it('accept what the engine runs', () => {
    for (const ok of [
      '${taskUser}',
      '${applyUser}',
      "${flag == 'ok'}",
      '${days > 3}',
      '${days >= 3 && days <= 10}',
      "${!(flag != 'ok') || urgent == true}",
      '${amount < -1.5}',
      '${x == null}',
      '  ${ a }  ',
    ])
      expect(checkExpression(ok), ok).toBeNull();
  });

  it('say what is wrong otherwise', () => {
    expect(checkExpression('taskUser')).toEqual({ kind: 'notWrapped' });
    expect(checkExpression('${nrOfCompletedInstances * 2 >= nrOfInstances}')).toBeNull();
    expect(checkExpression('${a *}')).toEqual({ kind: 'unexpectedEnd' });
    expect(checkExpression("${flag == 'ok}")).toEqual({ kind: 'unterminated' });
    expect(checkExpression('${(a == 1}')).toEqual({ kind: 'missingParen' });
    expect(checkExpression('${a ==}')).toEqual({ kind: 'unexpectedEnd' });
    expect(checkExpression('${a + b}')).toEqual({ kind: 'unexpected', token: '+' });
    expect(checkExpression('${a b}')).toEqual({ kind: 'unexpected', token: 'b' });
    expect(checkExpression('${}')).toEqual({ kind: 'unexpectedEnd' });
  });

  it('check only the expression parts of a list', () => {
    expect(checkList('1123598821738675201,${taskUser}')).toBeNull();
    expect(checkList('administrator, user')).toBeNull();
    expect(checkList('administrator,${a +}')).toEqual({ kind: 'unexpected', token: '+' });
  });
});
