import { z } from 'zod';
import type { RouteSet } from '../../http/routes';
import { oidcCallbackRoute, startOidcRoute } from './oidc';
import { authOpenApiPaths } from './openapi';

export const providerParams = z.object({
  provider: z.string().meta({ description: 'the provider id from OIDC_PROVIDERS' }),
});

/** OpenID Connect sign-in's redirects (routes/auth/oidc.ts); its JSON procedures are in packages/api. */
export const authRoutes: RouteSet = {
  routes: [
    {
      method: 'GET',
      path: '/auth/oidc/{provider}/start',
      operationId: 'auth-oidc-start',
      access: 'public',
      optionalAuth: true,
      rateLimit: 'auth',
      noBody: true,
      params: providerParams,
      handler: startOidcRoute,
    },
    {
      method: 'GET',
      path: '/auth/oidc/{provider}/callback',
      operationId: 'auth-oidc-callback',
      access: 'public',
      rateLimit: 'auth',
      noBody: true,
      params: providerParams,
      handler: oidcCallbackRoute,
    },
  ],
  openapiPaths: authOpenApiPaths,
};
