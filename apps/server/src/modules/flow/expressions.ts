/**
 * The expressions BPMN diagrams may use — `${approver}`, `${days > 3}`, `${flag == 'ok' && !urgent}` — over
 * process variables, evaluated here on the tree of the one parser both ends share (`parseExpression` of
 * @smart/contracts/bpmn; the designer checks with it), never `eval`. Anything else is refused at deployment.
 */
import { type ExpressionNode, isExpression, parseExpression } from '@smart/contracts';

function evaluate(n: ExpressionNode, vars: Record<string, unknown>): unknown {
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

/** Throws with the reason when the expression is not in the supported language. */
export function checkExpression(text: string): void {
  parseExpression(text);
}

/** `${…}` evaluated over the variables; any other text is returned as it is. */
export function resolve(text: unknown, vars: Record<string, unknown>): unknown {
  if (typeof text !== 'string' || !isExpression(text)) return text;
  return evaluate(parseExpression(text), vars);
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
        // a multi-instance sub-process's iteration: its element variable and loopCounter (runtime/variables.ts ITERATION)
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
