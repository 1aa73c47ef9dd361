import { adminUsersRouter } from './routers/admin-users';
import { authRouter } from './routers/auth';
import { devRouter, registrationRouter } from './routers/registration';
import { systemRouter } from './routers/system';
import { usersRouter } from './routers/users';
import { router } from './trpc';

export const appRouter = router({
  auth: authRouter,
  registration: registrationRouter,
  dev: devRouter,
  system: systemRouter,
  users: usersRouter,
  adminUsers: adminUsersRouter,
});

export type AppRouter = typeof appRouter;
