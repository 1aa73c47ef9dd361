import { accessTokensRouter } from './routers/access-tokens';
import { adminUsersRouter } from './routers/admin-users';
import { authRouter } from './routers/auth';
import { eventsRouter } from './routers/events';
import { governanceRouter } from './routers/governance/index';
import { devRouter, registrationRouter } from './routers/registration';
import { storageRouter } from './routers/storage';
import { storageAdminRouter } from './routers/storage-admin';
import { systemRouter } from './routers/system';
import { usersRouter } from './routers/users';
import { webhooksRouter } from './routers/webhooks';
import { router } from './trpc';

export const appRouter = router({
  auth: authRouter,
  registration: registrationRouter,
  dev: devRouter,
  system: systemRouter,
  governance: governanceRouter,
  events: eventsRouter,
  users: usersRouter,
  adminUsers: adminUsersRouter,
  storage: storageRouter,
  storageAdmin: storageAdminRouter,
  tokens: accessTokensRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;
