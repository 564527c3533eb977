/**
 * The expression language the server's engine runs (`${approver}`, `${days > 3}`, `${flag == 'ok' && !urgent}`):
 * identifiers, string/number/boolean/null literals, `== != > < >= <=`, `!`, `&&`, `||` and parentheses. The
 * designer checks what is typed against it so a mistake shows beside the field, not at deployment.
 */

type Token = { t: 'id' | 'str' | 'num' | 'op' | 'lp' | 'rp'; v: string };

export type ExpressionError =
  | { kind: 'notWrapped' }
  | { kind: 'unterminated' }
  | { kind: 'unexpected'; token: string }
  | { kind: 'missingParen' }
  | { kind: 'unexpectedEnd' };

class Fail extends Error {
  constructor(readonly error: ExpressionError) {
    super(error.kind);
  }
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')') {
      out.push({ t: c === '(' ? 'lp' : 'rp', v: c });
      i++;
      continue;
    }
    const two = src.slice(i, i + 2);
    if (['==', '!=', '>=', '<=', '&&', '||'].includes(two)) {
      out.push({ t: 'op', v: two });
      i += 2;
      continue;
    }
    if (c === '>' || c === '<' || c === '!' || c === '*' || c === '/') {
      out.push({ t: 'op', v: c });
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      const end = src.indexOf(c, i + 1);
      if (end < 0) throw new Fail({ kind: 'unterminated' });
      out.push({ t: 'str', v: src.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    const num = /^-?\d+(\.\d+)?/.exec(src.slice(i));
    if (num) {
      out.push({ t: 'num', v: num[0] });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(src.slice(i));
    if (id) {
      out.push({ t: 'id', v: id[0] });
      i += id[0].length;
      continue;
    }
    throw new Fail({ kind: 'unexpected', token: c });
  }
  return out;
}

function parse(tokens: Token[]): void {
  let pos = 0;
  const peek = () => tokens[pos];
  const or = (): void => {
    and();
    while (peek()?.v === '||') {
      pos++;
      and();
    }
  };
  const and = (): void => {
    cmp();
    while (peek()?.v === '&&') {
      pos++;
      cmp();
    }
  };
  const cmp = (): void => {
    product();
    const op = peek();
    if (op?.t === 'op' && ['==', '!=', '>', '<', '>=', '<='].includes(op.v)) {
      pos++;
      product();
    }
  };
  const product = (): void => {
    unary();
    while (peek()?.v === '*' || peek()?.v === '/') {
      pos++;
      unary();
    }
  };
  const unary = (): void => {
    const tk = peek();
    if (!tk) throw new Fail({ kind: 'unexpectedEnd' });
    pos++;
    if (tk.v === '!') {
      unary();
      return;
    }
    if (tk.t === 'lp') {
      or();
      if (peek()?.t !== 'rp') throw new Fail({ kind: 'missingParen' });
      pos++;
      return;
    }
    if (tk.t === 'str' || tk.t === 'num' || tk.t === 'id') return;
    throw new Fail({ kind: 'unexpected', token: tk.v });
  };
  or();
  if (pos !== tokens.length) throw new Fail({ kind: 'unexpected', token: tokens[pos].v });
}

const WRAPPED = /^\s*\$\{([\s\S]*)\}\s*$/;

/** null when `text` is a well-formed `${…}` expression, else what is wrong with it. */
export function checkExpression(text: string): ExpressionError | null {
  const m = WRAPPED.exec(text);
  if (!m) return { kind: 'notWrapped' };
  try {
    parse(tokenize(m[1]));
    return null;
  } catch (e) {
    if (e instanceof Fail) return e.error;
    throw e;
  }
}

/**
 * Checks a comma list of users, groups or expressions (candidate users / groups, an assignee): only the
 * parts written `${…}` are expressions; the others are plain ids or aliases.
 */
export function checkList(text: string): ExpressionError | null {
  for (const part of text.split(',')) {
    const p = part.trim();
    if (p.includes('${')) {
      const err = checkExpression(p);
      if (err) return err;
    }
  }
  return null;
}
