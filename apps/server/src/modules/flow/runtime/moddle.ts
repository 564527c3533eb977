/**
 * Reading BPMN 2.0 files: their bytes decoded by the encoding they declare, their XML parsed by bpmn-moddle
 * (with Camunda's extensions: what the designer's panel writes) into the elements the other parts walk.
 */
import { createRequire } from 'node:module';
import { plainNamespaces } from './namespaces';

const require = createRequire(import.meta.url);
/** camunda:assignee, camunda:candidateUsers, camunda:candidateGroups — what the designer's panel writes */
const camunda = require('camunda-bpmn-moddle/resources/camunda.json');
export const moddleOptions = { camunda };

/** An element of a parsed diagram, as far as this engine reads it. */
export interface ModdleElement {
  $type: string;
  $attrs?: Record<string, string>;
  resources?: ModdleElement[];
  resourceRef?: ModdleElement;
  resourceAssignmentExpression?: { expression?: { body?: string } };
  id: string;
  name?: string;
  isExecutable?: boolean;
  flowElements?: ModdleElement[];
  eventDefinitions?: ModdleElement[];
  conditionExpression?: { body?: string; language?: string };
  targetRef?: ModdleElement;
  loopCharacteristics?: ModdleElement;
  messageFlows?: ModdleElement[];
  assignee?: string;
  candidateUsers?: string;
  candidateGroups?: string;
}

/**
 * A file's text in the encoding its XML declaration names (ISO-8859-1, GBK, UTF-16 …), UTF-8 when it names
 * none or one this runtime does not know; a byte-order mark wins over the declaration.
 */
export function decodeXml(buf: Buffer): string {
  if (buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder('utf-16le').decode(buf);
  if (buf[0] === 0xfe && buf[1] === 0xff) return new TextDecoder('utf-16be').decode(buf);
  const head = buf.subarray(0, 200).toString('latin1');
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declared ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  // the text is handed on already decoded: the declaration must no longer claim another encoding
  return decoder.decode(buf).replace(/^(\uFEFF?\s*<\?xml[^>]*\bencoding\s*=\s*["'])[^"']+/, '$1UTF-8');
}

/** A reference to a message or a signal: its id, and its name when it has one. */
export type Ref = { id?: string; name?: string };

/** A parsed file's root: its processes, collaborations, messages … */
export type Definitions = ModdleElement & { rootElements?: ModdleElement[] };
export interface Moddle {
  create(type: string, attrs: object): object;
  fromXML(x: string): Promise<{ rootElement: object; warnings: { message: string }[] }>;
  toXML(el: object): Promise<{ xml: string }>;
}

/** A diagram parsed: the moddle that read it (it writes it back too), its root and what it warned of. */
export async function parseBpmn(xml: string) {
  const { default: BpmnModdle } = (await import('bpmn-moddle')) as unknown as {
    default: new (p: object) => Moddle;
  };
  const moddle = new BpmnModdle(moddleOptions);
  const parsed = await moddle.fromXML(plainNamespaces(xml));
  return { moddle, definitions: parsed.rootElement as Definitions, warnings: parsed.warnings };
}

/** Every element of a process, at any depth of sub-processes. */
export function elementsOf(elements: ModdleElement[] = []): ModdleElement[] {
  return elements.flatMap((el) => [el, ...elementsOf(el.flowElements)]);
}

/** Every element of the file's processes, at any depth. */
export const processElements = (definitions: Definitions) =>
  (definitions.rootElements ?? [])
    .filter((e) => e.$type === 'bpmn:Process')
    .flatMap((p) => elementsOf(p.flowElements));

/** An event sub-process (`triggeredByEvent`): started by what its container meets, not by a flow. */
export const isEventSubProcess = (el: ModdleElement) =>
  el.$type === 'bpmn:SubProcess' && !!(el as { triggeredByEvent?: boolean }).triggeredByEvent;

/**
 * The id bpmn-elements gives a diagram whose `<definitions>` has none (what Flowable's modeler exports): the
 * states of instances started from such a file before deployments gave it an id name it so.
 */
export const UNNAMED_DEFINITIONS = 'Def';

/** the root element's start tag: its (prefixed) name and its attributes, quoted values as XML writes them */
const ROOT_TAG = /<((?:[A-Za-z_][\w.-]*:)?definitions)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)(\s*\/?>)/;

/**
 * The file with an id on its `<definitions>` when it has none (`id`), written into the start tag and
 * nothing else changed. bpmn-engine finds the diagram of a saved state by that id: without one, no step
 * after the first recovered. A file that has one, or whose root is not found, is answered as it is.
 */
export function withDefinitionsId(xml: string, id: string): string {
  const m = ROOT_TAG.exec(xml);
  if (!m || /(?:^|\s)id\s*=/.test(m[2])) return xml;
  const at = m.index + 1 + m[1].length;
  return `${xml.slice(0, at)} id="${id}"${xml.slice(at)}`;
}
