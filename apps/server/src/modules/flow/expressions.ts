/**
 * The expressions BPMN diagrams may use — `${approver}`, `${days > 3}`, `${flag == 'ok' && !urgent}` — over
 * process variables. A small parser, never `eval`: identifiers, string/number/boolean literals, comparisons,
 * `*` and `/` (a share of a countersign: `${nrOfCompletedInstances * 2 >= nrOfInstances}`), `!`, `&&`, `||`
 * and parentheses. Anything else is refused at deployment.
 */

type Token = { t: 'id' | 'str' | 'num' | 'op' | 'lp' | 'rp'; v: string };

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
      if (end < 0) throw new Error('unterminated string');
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
    throw new Error(`unexpected "${c}"`);
  }
  return out;
}

type Node =
  | { k: 'lit'; v: unknown }
  | { k: 'var'; name: string }
  | { k: 'not'; e: Node }
  | { k: 'bin'; op: string; l: Node; r: Node };

function parse(tokens: Token[]): Node {
  let pos = 0;
  const peek = () => tokens[pos];
  const or = (): Node => {
    let l = and();
    while (peek()?.v === '||') {
      pos++;
      l = { k: 'bin', op: '||', l, r: and() };
    }
    return l;
  };
  const and = (): Node => {
    let l = cmp();
    while (peek()?.v === '&&') {
      pos++;
      l = { k: 'bin', op: '&&', l, r: cmp() };
    }
    return l;
  };
  const cmp = (): Node => {
    const l = product();
    const op = peek();
    if (op?.t === 'op' && ['==', '!=', '>', '<', '>=', '<='].includes(op.v)) {
      pos++;
      return { k: 'bin', op: op.v, l, r: product() };
    }
    return l;
  };
  const product = (): Node => {
    let l = unary();
    while (peek()?.v === '*' || peek()?.v === '/') {
      const op = tokens[pos++].v;
      l = { k: 'bin', op, l, r: unary() };
    }
    return l;
  };
  const unary = (): Node => {
    const tk = peek();
    if (!tk) throw new Error('unexpected end');
    pos++;
    if (tk.v === '!') return { k: 'not', e: unary() };
    if (tk.t === 'lp') {
      const e = or();
      if (peek()?.t !== 'rp') throw new Error('missing )');
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
    throw new Error(`unexpected "${tk.v}"`);
  };
  const node = or();
  if (pos !== tokens.length) throw new Error(`unexpected "${tokens[pos].v}"`);
  return node;
}

function evaluate(n: Node, vars: Record<string, unknown>): unknown {
  switch (n.k) {
    case 'lit':
      return n.v;
    case 'var': {
      // `environment.variables.x` and `environment.output.x` (bpmn-engine's own style) mean `x`
      const name = n.name.replace(/^environment\.(variables|output)\./, '');
      return Object.hasOwn(vars, name) ? vars[name] : undefined;
    }
    case 'not':
      return !evaluate(n.e, vars);
    case 'bin': {
      if (n.op === '&&') return !!evaluate(n.l, vars) && !!evaluate(n.r, vars);
      if (n.op === '||') return !!evaluate(n.l, vars) || !!evaluate(n.r, vars);
      const l = evaluate(n.l, vars);
      const r = evaluate(n.r, vars);
      if (n.op === '*') return Number(l) * Number(r);
      if (n.op === '/') return Number(l) / Number(r);
      const bothNumbers =
        (typeof l === 'number' || typeof r === 'number') &&
        !Number.isNaN(Number(l)) &&
        !Number.isNaN(Number(r));
      const [a, b] = bothNumbers
        ? [Number(l), Number(r)]
        : [l === undefined || l === null ? '' : String(l), r === undefined || r === null ? '' : String(r)];
      switch (n.op) {
        case '==':
          return a === b;
        case '!=':
          return a !== b;
        case '>':
          return a > b;
        case '<':
          return a < b;
        case '>=':
          return a >= b;
        default:
          return a <= b;
      }
    }
  }
}

const WRAPPED = /^\s*\$\{([\s\S]*)\}\s*$/;

export function isExpression(text: unknown): boolean {
  return typeof text === 'string' && WRAPPED.test(text);
}

/** Throws with the reason when the expression is not in the supported language. */
export function checkExpression(text: string): void {
  const m = WRAPPED.exec(text);
  if (!m) throw new Error('an expression is written ${…}');
  parse(tokenize(m[1]));
}

/** `${…}` evaluated over the variables; any other text is returned as it is. */
export function resolve(text: unknown, vars: Record<string, unknown>): unknown {
  if (typeof text !== 'string') return text;
  const m = WRAPPED.exec(text);
  if (!m) return text;
  return evaluate(parse(tokenize(m[1])), vars);
}

/**
 * What a multi-instance task's completion condition reads, as Flowable and Camunda name it: how many
 * instances there are, how many have completed, how many are still active.
 */
function loopVariables(content: { loopOutput?: unknown[]; loopCardinality?: number } | undefined) {
  if (!Array.isArray(content?.loopOutput)) return {};
  const instances = content.loopCardinality ?? content.loopOutput.length;
  const completed = content.loopOutput.filter((x) => x !== undefined).length;
  return {
    nrOfInstances: instances,
    nrOfCompletedInstances: completed,
    nrOfActiveInstances: instances - completed,
  };
}

/**
 * The expressions handler of one run of an instance. `processVariables` are the instance's variables as the
 * service keeps them (every value a task, call, action, message or signal set, the latest winning): they
 * are read in every scope — a sub-process's own environment holds only what was set inside it, an event
 * sub-process's only what the process started with — as Flowable and Camunda read process variables.
 */
export function engineExpressions(processVariables: Record<string, unknown> = {}) {
  return {
    resolveExpression(
      expression: string,
      context?: {
        environment?: { variables?: object; output?: object };
        content?: { loopOutput?: unknown[]; loopCardinality?: number };
      },
    ) {
      const vars = {
        ...(context?.environment?.variables ?? {}),
        ...(context?.environment?.output ?? {}),
        ...processVariables,
        // a multi-instance sub-process's iteration: its element variable and loopCounter (runtime.ts ITERATION)
        ...(((context?.environment?.variables as Record<string, unknown> | undefined)?.__iteration as
          | object
          | undefined) ?? {}),
        ...loopVariables(context?.content),
      };
      return resolve(expression, vars as Record<string, unknown>);
    },
    isExpression,
    hasExpression: (text: unknown) => typeof text === 'string' && text.includes('${'),
  };
}
