export * from './admin';
export * from './dicts';
export * from './registry';
export * from './system';
export * from './types';
export * from './user';
export * from './validate';
export * from './village';
