import { type OidcClients, oidcClients } from './auth/oidc/providers';
import { PasswordGate } from './auth/password/gate';
import { createSessionQueues, type SessionQueues } from './auth/session-lookup';
import { type ChainReader, createChainReader } from './chain';
import { type CommentThrottle, createCommentThrottle } from './discussion/throttle';
import { type GovernanceOptions, GovernanceRuntime } from './governance/runtime';
import type { ServiceBase } from './service-base';
import { type DeletionGuard, deletionGuards } from './users/deletion-guards';

/**
 * The service container's core part (docs/architecture.md, "The service container and each operation's
 * policy"): what core functions need besides their params — the database, settings, time and a logger —
 * and the state one instance keeps, each built once by createCoreServices. Core keeps no state of its own
 * outside it (no-module-state.test.ts).
 */
export interface Services extends ServiceBase {
  /** the vote batcher, the proposal cache and the prepared results read (governance/runtime.ts) */
  governance: GovernanceRuntime;
  /** session lookups and lastUsedAt writes, grouped per turn of the event loop (auth/session-lookup.ts) */
  sessions: SessionQueues;
  /** token DAOs' chain reads: one client per chain, and their request counter (chain/reader.ts) */
  chain: ChainReader;
  /** the argon2 work at once (auth/password/gate.ts) */
  passwordChecks: PasswordGate;
  /** the OpenID providers' discovered configurations (auth/oidc/providers.ts) */
  oidc: OidcClients;
  /** what can block deleting a user (users/deletion-guards.ts) */
  deletionGuards: DeletionGuard[];
  /** the per-account budget of comment writes (discussion/throttle.ts) */
  commentWrites: CommentThrottle;
}

/**
 * The core part of the container, from its base. The server passes its writer pool for vote batches
 * (apps/server/src/services.ts); tests and command-line tools pass the base alone.
 */
export function createCoreServices(base: ServiceBase, options: GovernanceOptions = {}): Services {
  return {
    ...base,
    governance: new GovernanceRuntime(base, options),
    sessions: createSessionQueues(base.db),
    chain: createChainReader(base.config),
    passwordChecks: new PasswordGate(base.config.passwordChecks),
    oidc: oidcClients(base),
    deletionGuards: [...deletionGuards],
    commentWrites: createCommentThrottle(base),
  };
}
