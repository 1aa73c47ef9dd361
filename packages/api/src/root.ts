import { authRouter } from './routers/auth';
import { devRouter, registrationRouter } from './routers/registration';
import { systemRouter } from './routers/system';
import { router } from './trpc';

export const appRouter = router({
  auth: authRouter,
  registration: registrationRouter,
  dev: devRouter,
  system: systemRouter,
});

export type AppRouter = typeof appRouter;
