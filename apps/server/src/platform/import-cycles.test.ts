import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No module of the server or of the contracts imports itself back at run time. In a cycle, whichever module
 * Node evaluates first sees the other's bindings before they are set (a `const` in its temporal dead zone),
 * and which one that is depends on who imported the cycle first: a change far away can break start-up.
 *
 * Walked: every static `import … from` and `export … from` reachable from the entry points, `@smart/contracts`
 * followed into its sources. `import type` and `export type` are left out (erased). Everything else counts,
 * even `import { type A } from`: under `verbatimModuleSyntax` that import stays, as `import {} from`. A
 * dynamic `import('./x')` runs after its importer has finished, so it is no edge of a cycle; its target is
 * walked as one more entry point.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const contractsDir = resolve(root, 'packages/contracts/src');
const ENTRY_POINTS = [
  'apps/server/src/main.ts',
  'apps/server/src/tools/simulate.ts',
  'packages/contracts/src/index.ts',
  'packages/contracts/src/core.ts',
  'packages/contracts/src/bpmn.ts',
];

/**
 * Cycles known today, each as the set of its modules (repository paths), with the reason it is tolerated.
 * A cycle listed here must match exactly: one more module in it, or a new cycle, fails the test.
 */
const KNOWN_CYCLES: { modules: string[]; why: string }[] = [];

function resolveImport(from: string, spec: string): string | undefined {
  let base: string;
  if (spec === '@smart/contracts') base = resolve(contractsDir, 'index');
  else if (spec.startsWith('@smart/contracts/')) {
    const sub = spec.slice('@smart/contracts/'.length);
    base = resolve(contractsDir, sub === 'core' || sub === 'bpmn' ? sub : `resource/${sub}`);
  } else if (spec.startsWith('.')) base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  else return undefined; // an npm package or a Node built-in
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`])
    if (existsSync(candidate)) return candidate;
  throw new Error(`${relative(root, from)}: cannot resolve '${spec}'`);
}

interface ModuleImports {
  /** evaluated before this module's body: edges of the graph */
  static: string[];
  /** loaded later, by `import()`: walked, but no edge */
  dynamic: string[];
}

function importsOf(file: string): ModuleImports {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: ModuleImports = { static: [], dynamic: [] };
  const add = (list: string[], spec: ts.Expression | undefined) => {
    if (!spec || !ts.isStringLiteral(spec)) return;
    const target = resolveImport(file, spec.text);
    if (target) list.push(target);
  };
  for (const st of source.statements) {
    if (ts.isImportDeclaration(st) && !st.importClause?.isTypeOnly) add(out.static, st.moduleSpecifier);
    if (ts.isExportDeclaration(st) && !st.isTypeOnly) add(out.static, st.moduleSpecifier);
  }
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      add(out.dynamic, node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The runtime import graph of everything reachable from the entry points. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const todo = ENTRY_POINTS.map((p) => resolve(root, p));
  for (let file = todo.pop(); file; file = todo.pop()) {
    if (graph.has(file)) continue;
    const imports = importsOf(file);
    graph.set(file, imports.static);
    todo.push(...imports.static, ...imports.dynamic);
  }
  return graph;
}

/** Strongly connected components of more than one module, or of one that imports itself (Tarjan). */
function cyclicComponents(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found;
}

/** One shortest cycle through the component's first module, to name in a failure: a → b → … → a. */
function aCycle(graph: Map<string, string[]>, component: string[]): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i];
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]) as string);
        return [...path, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

describe('runtime imports', () => {
  it('have no cycle in the server or the contracts', () => {
    const graph = importGraph();
    // the walk did reach the server and the contracts (a broken entry point would find nothing)
    expect(graph.size).toBeGreaterThan(100);
    const name = (f: string) => relative(root, f);
    const known = new Set(KNOWN_CYCLES.map((c) => [...c.modules].sort().join('\n')));
    const cycles = cyclicComponents(graph)
      .filter((component) => !known.has(component.map(name).sort().join('\n')))
      .map((component) => aCycle(graph, component).map(name).join(' → '));
    expect(cycles).toEqual([]);
  }, 30_000); // reads every source file: seconds on a busy machine
});
