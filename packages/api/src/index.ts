export * from './context';
export * from './errors';
export { type AppRouter, appRouter } from './root';
export { createCallerFactory, type Meta } from './trpc';
