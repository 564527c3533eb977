declare module 'bpmn-moddle';
