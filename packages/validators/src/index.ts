export * from './auth';
export * from './common';
export * from './events';
export * from './governance';
export * from './password-policy';
export * from './storage';
export * from './text';
export * from './users';
