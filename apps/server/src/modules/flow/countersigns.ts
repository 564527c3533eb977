import type { CountersignStep } from '@smart/contracts/bpmn';

/**
 * The countersigns (会签, 或签, a share) a step of a process leads to: multi-instance user tasks (and
 * sub-processes and call activities, run once per user) over a collection variable (`camunda:collection="${approvers}"`, Flowable's and Activiti's alike), reached from
 * the start event — or from the task being handled — through gateways, events and tasks nobody handles,
 * without passing another user task. Whoever takes
 * that step picks the approvers: the start form, or the handle page of the step just before.
 *
 * Read from the deployed definition's XML with a small tag scanner; the work routes answer it
 * (`/work/countersigns`) so that the start and handle forms know which list to ask for.
 */

interface XmlNode {
  /** the local name (`userTask` of `bpmn:userTask`) */
  local: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(
          e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)),
        )
      : (ENTITIES[e.toLowerCase()] ?? ''),
  );
const localOf = (qname: string) => qname.slice(qname.indexOf(':') + 1);

/** The element tree of a well-formed document (comments, declarations and instructions dropped). */
function parseXml(xml: string): XmlNode {
  const root: XmlNode = { local: '#document', attrs: {}, children: [], text: '' };
  const stack = [root];
  const body = xml
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_, t: string) =>
      t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    )
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<![^>]*>/g, '');
  const tag = /<(\/?)([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
  let last = 0;
  for (let m = tag.exec(body); m; m = tag.exec(body)) {
    const top = stack[stack.length - 1];
    top.text += decode(body.slice(last, m.index));
    last = tag.lastIndex;
    const [, closing, qname, attrText, selfClosing] = m;
    if (closing) {
      if (stack.length > 1 && top.local === localOf(qname)) stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of attrText.matchAll(/([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
      attrs[a[1]] = decode(a[2] ?? a[3] ?? '');
    const node: XmlNode = { local: localOf(qname), attrs, children: [], text: '' };
    top.children.push(node);
    if (!selfClosing) stack.push(node);
  }
  return root;
}

/** The value of the attribute `local` under any prefix (`camunda:collection`, `flowable:collection`). */
function attrOf(node: XmlNode, local: string): string | undefined {
  for (const [k, v] of Object.entries(node.attrs)) if (localOf(k) === local) return v;
  return undefined;
}

function* walk(node: XmlNode): Generator<XmlNode> {
  yield node;
  for (const c of node.children) yield* walk(c);
}

/** `approvers` of `${approvers}` or `#{approvers}` (a plain variable: the engine evaluates nothing else). */
const COLLECTION = /^\s*[$#]\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\s*$/;

/**
 * A countersign (a multi-instance user task), or a multi-instance sub-process or call activity over a list
 * of users (`each`: every one picked goes through it once; the engine runs those too).
 */
function countersignOf(node: XmlNode): CountersignStep | undefined {
  const each = node.local === 'subProcess' || node.local === 'callActivity';
  if (node.local !== 'userTask' && !each) return undefined;
  const loop = node.children.find((c) => c.local === 'multiInstanceLoopCharacteristics');
  const variable = loop && COLLECTION.exec(attrOf(loop, 'collection') ?? '')?.[1];
  if (!loop || !variable) return undefined;
  const condition = loop.children
    .find((c) => c.local === 'completionCondition')
    ?.text.replace(/\s+/g, '')
    .trim();
  const kind = each
    ? 'each'
    : !condition
      ? 'all'
      : /^\$\{nrOfCompletedInstances(>=1|>0)\}$/.test(condition)
        ? 'any'
        : 'share';
  return {
    taskId: node.attrs.id ?? '',
    name: node.attrs.name || node.attrs.id || '',
    variable,
    kind,
    sequential: attrOf(loop, 'isSequential')?.trim() === 'true',
  };
}

const SUB_PROCESS = /^(subProcess|transaction|adHocSubProcess)$/;

/**
 * The countersigns the next step reaches: from the start events when `from` is not given, else from the
 * activities `from` (the task being handled), through gateways and events, stopping at every user task.
 * One entry per variable (two countersigns over the same list share it).
 */
export function countersignsAfter(
  xml: string | null | undefined,
  from?: readonly string[],
): CountersignStep[] {
  if (!xml) return [];
  let doc: XmlNode;
  try {
    doc = parseXml(xml);
  } catch {
    return [];
  }
  const found: CountersignStep[] = [];
  for (const process of walk(doc)) {
    // the process, or (for a task being handled inside one) a sub-process: its own steps and flows
    const container = process.local === 'process' || (!!from && SUB_PROCESS.test(process.local));
    if (!container) continue;
    const nodes = new Map<string, XmlNode>();
    const outgoing = new Map<string, string[]>();
    for (const c of process.children) {
      if (c.local === 'sequenceFlow') {
        const source = c.attrs.sourceRef ?? '';
        outgoing.set(source, [...(outgoing.get(source) ?? []), c.attrs.targetRef ?? '']);
      } else if (c.attrs.id) nodes.set(c.attrs.id, c);
    }
    const origins = from
      ? from.filter((id) => nodes.has(id))
      : process.children.filter((c) => c.local === 'startEvent').map((c) => c.attrs.id ?? '');
    const seen = new Set<string>(origins);
    const queue = origins.flatMap((id) => outgoing.get(id) ?? []);
    while (queue.length) {
      const id = queue.shift()!;
      if (seen.has(id)) continue;
      seen.add(id);
      const node = nodes.get(id);
      if (!node) continue;
      if (node.local === 'userTask') {
        const step = countersignOf(node);
        if (step && !found.some((f) => f.variable === step.variable)) found.push(step);
        continue;
      }
      // a sub-process or a call activity has steps of its own, who pick for what follows it; one that runs
      // once per user of a list has that list picked here
      if (node.local === 'callActivity' || SUB_PROCESS.test(node.local)) {
        const step = countersignOf(node);
        if (step && !found.some((f) => f.variable === step.variable)) found.push(step);
        continue;
      }
      queue.push(...(outgoing.get(id) ?? []));
    }
  }
  return found;
}

/** The countersign (or a sub-process or call activity run per user) of element `id`, if it is one. */
export function countersignById(xml: string, id: string): CountersignStep | undefined {
  let doc: XmlNode;
  try {
    doc = parseXml(xml);
  } catch {
    return undefined;
  }
  for (const node of walk(doc)) if (node.attrs.id === id) return countersignOf(node);
  return undefined;
}
