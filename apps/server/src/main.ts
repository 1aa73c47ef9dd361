import { createLogger } from '@plenum/core';
import { createApp } from './app';
import { mailWarning } from './config';
import { EnvError, loadEnv } from './env';

let env: ReturnType<typeof loadEnv>;
try {
  env = loadEnv();
} catch (err) {
  if (err instanceof EnvError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

const log = createLogger({ level: env.LOG_LEVEL });
let app: Awaited<ReturnType<typeof createApp>>;
let port: number;
try {
  app = await createApp({ env, logger: log });
  port = await app.listen();
} catch (err) {
  // a port in use or a node that cannot start: one line saying what to change, not a stack trace
  const e = err as NodeJS.ErrnoException;
  if (e?.name === 'StartupError' || e?.code === 'EADDRINUSE') {
    console.error(
      e.code === 'EADDRINUSE' ? `Cannot start: ${e.message} (set PORT to a free port)` : e.message,
    );
    process.exit(1);
  }
  throw err;
}
log.info(
  { port, db: app.dbHandle.kind, dataDir: env.DATABASE_URL ? undefined : env.dataDir },
  `Plenum API listening on http://localhost:${port} (docs: /api/docs)`,
);
// mail that goes nowhere is easy to miss until nobody can verify or reset (docs/operations.md, "Email")
const noMail = mailWarning(env);
if (noMail) log.warn({ appUrl: env.APP_URL }, noMail);

// A promise nobody awaited that rejects is a bug to log, not a reason to drop every connection of this
// process (docs/api.md, "Errors"). Thrown exceptions still stop it: their state cannot be trusted.
process.on('unhandledRejection', (err) => log.error({ err }, 'unhandled promise rejection'));

// A stop signal drains then closes (docs/operations.md, "Shutdown"); a second one during SHUTDOWN_DELAY
// ends the delay at once (an operator pressing Ctrl-C twice), and later ones are ignored.
let stopping = false;
let endDelay: (() => void) | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) {
      endDelay?.();
      return;
    }
    stopping = true;
    log.info({ signal, delayMs: env.SHUTDOWN_DELAY }, 'shutting down');
    // not ready, still serving: the balancer's next /ready poll takes this instance out of rotation
    if (env.SHUTDOWN_DELAY > 0) {
      app.drain();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, env.SHUTDOWN_DELAY);
        endDelay = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      endDelay = null;
    }
    const force = setTimeout(() => process.exit(1), env.SHUTDOWN_TIMEOUT);
    force.unref();
    await app.close().catch((err: unknown) => log.error({ err }, 'shutdown failed'));
    process.exit(0);
  });
}
