export * from './availability';
export * from './client';
export * from './embedded-export';
export * from './errors';
export * from './schema/index';
export * as schema from './schema/index';
