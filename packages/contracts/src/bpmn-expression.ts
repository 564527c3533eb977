/**
 * The expression language of BPMN diagrams — `${approver}`, `${days > 3}`, `${flag == 'ok' && !urgent}` —
 * read by one parser on both ends: the server's engine evaluates the tree it gives (never `eval`), the
 * designer checks what is typed with it, so a mistake shows beside the field and not at deployment.
 * Identifiers (`a.b` too), string, number, boolean and null literals, comparisons (`== != > < >= <=`), `*` and
 * `/` (a share of a countersign: `${nrOfCompletedInstances * 2 >= nrOfInstances}`), `!`, `&&`, `||` and
 * parentheses. Anything else is refused.
 */

type Token = { t: 'id' | 'str' | 'num' | 'op' | 'lp' | 'rp'; v: string };

/** What is wrong with an expression (the designer words it in the user's language). */
export type ExpressionError =
  | { kind: 'notWrapped' }
  | { kind: 'unterminated' }
  | { kind: 'unexpected'; token: string }
  | { kind: 'missingParen' }
  | { kind: 'unexpectedEnd' };

/** An expression, parsed. */
export type ExpressionNode =
  | { k: 'lit'; v: unknown }
  | { k: 'var'; name: string }
  | { k: 'not'; e: ExpressionNode }
  | { k: 'bin'; op: string; l: ExpressionNode; r: ExpressionNode };

/** How the server words each error (deployment answers quote it after the element it is on). */
const REASONS: { [K in ExpressionError['kind']]: (e: Extract<ExpressionError, { kind: K }>) => string } = {
  notWrapped: () => 'an expression is written ${…}',
  unterminated: () => 'unterminated string',
  unexpected: (e) => `unexpected "${e.token}"`,
  missingParen: () => 'missing )',
  unexpectedEnd: () => 'unexpected end',
};

/** An expression that is not in the language: `error` says what is wrong, the message in words. */
export class ExpressionSyntaxError extends Error {
  constructor(readonly error: ExpressionError) {
    super((REASONS[error.kind] as (e: ExpressionError) => string)(error));
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
    if (['>', '<', '!', '*', '/'].includes(c)) {
      out.push({ t: 'op', v: c });
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      const end = src.indexOf(c, i + 1);
      if (end < 0) throw new ExpressionSyntaxError({ kind: 'unterminated' });
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
    throw new ExpressionSyntaxError({ kind: 'unexpected', token: c });
  }
  return out;
}

function parse(tokens: Token[]): ExpressionNode {
  let pos = 0;
  const peek = () => tokens[pos];
  const or = (): ExpressionNode => {
    let l = and();
    while (peek()?.v === '||') {
      pos++;
      l = { k: 'bin', op: '||', l, r: and() };
    }
    return l;
  };
  const and = (): ExpressionNode => {
    let l = cmp();
    while (peek()?.v === '&&') {
      pos++;
      l = { k: 'bin', op: '&&', l, r: cmp() };
    }
    return l;
  };
  const cmp = (): ExpressionNode => {
    const l = product();
    const op = peek();
    if (op?.t === 'op' && ['==', '!=', '>', '<', '>=', '<='].includes(op.v)) {
      pos++;
      return { k: 'bin', op: op.v, l, r: product() };
    }
    return l;
  };
  const product = (): ExpressionNode => {
    let l = unary();
    while (peek()?.v === '*' || peek()?.v === '/') {
      const op = tokens[pos++].v;
      l = { k: 'bin', op, l, r: unary() };
    }
    return l;
  };
  const unary = (): ExpressionNode => {
    const tk = peek();
    if (!tk) throw new ExpressionSyntaxError({ kind: 'unexpectedEnd' });
    pos++;
    if (tk.v === '!') return { k: 'not', e: unary() };
    if (tk.t === 'lp') {
      const e = or();
      if (peek()?.t !== 'rp') throw new ExpressionSyntaxError({ kind: 'missingParen' });
      pos++;
      return e;
    }
    if (tk.t === 'str') return { k: 'lit', v: tk.v };
    if (tk.t === 'num') return { k: 'lit', v: Number(tk.v) };
    if (tk.t === 'id') {
      if (tk.v === 'true' || tk.v === 'false') return { k: 'lit', v: tk.v === 'true' };
      if (tk.v === 'null') return { k: 'lit', v: null };
      return { k: 'var', name: tk.v };
    }
    throw new ExpressionSyntaxError({ kind: 'unexpected', token: tk.v });
  };
  const node = or();
  if (pos !== tokens.length) throw new ExpressionSyntaxError({ kind: 'unexpected', token: tokens[pos].v });
  return node;
}

const WRAPPED = /^\s*\$\{([\s\S]*)\}\s*$/;

/** Whether a text is written as one `${…}` expression (whatever is inside). */
export function isExpression(text: unknown): boolean {
  return typeof text === 'string' && WRAPPED.test(text);
}

/** Parses a `${…}` expression; throws an ExpressionSyntaxError when it is not one of the language. */
export function parseExpression(text: string): ExpressionNode {
  const m = WRAPPED.exec(text);
  if (!m) throw new ExpressionSyntaxError({ kind: 'notWrapped' });
  return parse(tokenize(m[1]));
}

/** null when `text` is a well-formed `${…}` expression, else what is wrong with it. */
export function checkExpression(text: string): ExpressionError | null {
  try {
    parseExpression(text);
    return null;
  } catch (e) {
    if (e instanceof ExpressionSyntaxError) return e.error;
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
