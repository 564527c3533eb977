export * from './api';
export * from './constants';
