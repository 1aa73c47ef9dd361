export * from './auth';
export * from './common';
export * from './events';
export * from './storage';
export * from './users';
