/**
 * For the designer's unit tests: the BPMN moddle with the camunda extension (what bpmn-js reads and writes
 * in the designer, and what the server's engine parses), a file read into it and written back out.
 */
import BpmnModdle from 'bpmn-moddle';
import camunda from 'camunda-bpmn-moddle/resources/camunda.json';

export interface TestElement {
  $type: string;
  id: string;
  $parent?: any;
  extensionElements?: any;
  $attrs: Record<string, string>;
  get(name: string): unknown;
  set(name: string, value: unknown): void;
  [k: string]: any;
}

export const moddle = () => new BpmnModdle({ camunda });

const wrap = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:flowable="http://flowable.org/bpmn" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="defs" targetNamespace="http://smart-admin/flow">
  <bpmn:process id="p" isExecutable="true">${body}</bpmn:process>
</bpmn:definitions>`;

/** Reads a process holding `body` and answers its element `id`, the moddle and a way to write it out. */
export async function load(body: string, id: string) {
  const m = moddle();
  const { rootElements } = (await m.fromXML(wrap(body))).rootElement as { rootElements: TestElement[] };
  const el = (rootElements[0].flowElements as TestElement[]).find((e) => e.id === id)!;
  return {
    moddle: m,
    el,
    /** what bpmn-js's updateProperties does with a set of properties */
    apply(props: Record<string, unknown>) {
      for (const [k, v] of Object.entries(props)) el.set(k, v);
    },
    async xml(): Promise<string> {
      const defs = el.$parent.$parent;
      return (await m.toXML(defs)).xml;
    },
    /** the element again, read from what was written */
    async reread(): Promise<TestElement> {
      const text = await this.xml();
      const again = (await moddle().fromXML(text)).rootElement as { rootElements: TestElement[] };
      return (again.rootElements[0].flowElements as TestElement[]).find((e) => e.id === id)!;
    },
  };
}
