export * from './governance';
export * from './storage';
export * from './users';
