import type * as client from 'openid-client';
import type { OidcProviderConfig } from '../../config';
import type { ServiceBase } from '../../service-base';
import { AppError, notFound } from '../../shared/errors';

export type { OidcProviderConfig };

/** how long discovery and the token exchange may take before the person is told the provider is down */
export const OIDC_TIMEOUT_S = 10;

/**
 * openid-client, imported on the first OpenID sign-in rather than at start, like the other libraries a
 * server may never use (docs/operations.md, "Memory of the embedded mode"). Node keeps the module.
 */
export const openidClient = () => import('openid-client');

/**
 * The providers' discovered configurations, one per provider, discovered on first use and kept for the
 * life of the service container. A failed discovery is not kept: the next sign-in tries again.
 */
export class OidcClients {
  readonly #discovered = new Map<string, Promise<client.Configuration>>();
  constructor(readonly providers: OidcProviderConfig[]) {}

  provider(id: string): OidcProviderConfig {
    const p = this.providers.find((x) => x.id === id);
    if (!p) throw notFound(`No OpenID provider "${id}"`);
    return p;
  }

  configuration(id: string): Promise<client.Configuration> {
    const p = this.provider(id);
    let found = this.#discovered.get(id);
    if (!found) {
      const issuer = new URL(p.issuer);
      // plain http only for a loopback issuer (a test provider); start-up refuses any other
      const insecure = issuer.protocol === 'http:';
      found = openidClient().then((client) =>
        client.discovery(issuer, p.clientId, p.clientSecret, undefined, {
          timeout: OIDC_TIMEOUT_S,
          ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
        }),
      );
      this.#discovered.set(id, found);
      found.catch(() => this.#discovered.delete(id));
    }
    return found.catch((err) => {
      throw providerUnavailable(err);
    });
  }
}

export const providerUnavailable = (cause: unknown) =>
  new AppError('BAD_GATEWAY', 'The sign-in provider did not answer', {
    reason: 'OIDC_PROVIDER_UNAVAILABLE',
    cause,
  });

export const oidcClients = (base: ServiceBase) => new OidcClients(base.config.oidcProviders ?? []);
