export * from './activity';
export * from './comments';
export * from './governance';
export * from './identities';
export * from './notifications';
export * from './passkeys';
export * from './storage';
export * from './users';
