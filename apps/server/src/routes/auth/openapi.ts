import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { errorResponse as error } from '../../http/openapi-errors';

const redirect = (description: string) => ({
  description,
  headers: z.object({ Location: z.string().meta({ description: 'where the browser goes next' }) }),
});

/** Redirects for a browser, not JSON: their entries are written here (docs/accounts.md). */
export const authOpenApiPaths: ZodOpenApiPathsObject = {
  '/auth/oidc/{provider}/start': {
    get: {
      tags: ['auth'],
      summary: 'Start signing in with an OpenID provider (a browser navigation)',
      description:
        'Redirects to the provider with PKCE (S256), state and nonce, and sets the short-lived `plenum_oidc` cookie that binds the flow to this browser. `intent=link` links the identity to the signed-in account instead (session required).',
      requestParams: {
        query: z.object({
          returnTo: z
            .string()
            .optional()
            .meta({ description: 'a path of the web app to return to, e.g. /dashboard' }),
          intent: z.literal('link').optional().meta({ description: 'link to the signed-in account' }),
        }),
      },
      responses: {
        '302': redirect("To the provider's authorization endpoint (or the sign-in page with an error code)"),
        '400': error('returnTo is not a path of this app'),
        '404': error('No such provider'),
      },
    },
  },
  '/auth/oidc/{provider}/callback': {
    get: {
      tags: ['auth'],
      summary: "The provider's answer: signs in, creates or links an account, and returns to the app",
      description:
        'Always a redirect to the web app: to `returnTo` signed in (session cookie), to `/sign-in#mfa=…` for the second factor, to `/sign-in?oidc=check-email` or `?oidc=verify-email`, or to `/sign-in?error=<code>`.',
      responses: {
        '302': redirect('Back to the web app'),
        '404': error('No such provider'),
      },
    },
  },
};
