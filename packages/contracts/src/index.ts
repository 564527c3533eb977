export * from './api';
export * from './constants';
export * from './resource';
