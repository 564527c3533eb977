/** bpmn-moddle (the BPMN reader/writer bpmn-js is built on) ships no types; the unit tests use it directly. */
declare module 'bpmn-moddle';
