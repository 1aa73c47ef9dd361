export * from './context';
export * from './errors';
export {
  type Access,
  accessRefusal,
  listOperations,
  type Operation,
  operationScope,
  type RateBudget,
  scopeRefusal,
} from './policy';
export { type AppRouter, appRouter } from './root';
export { storageOf } from './routers/storage';
export { createCallerFactory, type Meta } from './trpc';
