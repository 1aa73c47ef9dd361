export * from './activity';
export * from './governance';
export * from './notifications';
export * from './storage';
export * from './users';
