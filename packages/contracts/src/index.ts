export * from './api';
export * from './bpmn';
export * from './constants';
export * from './resource';
