import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { errorResponse as error } from '../../http/openapi-errors';

// the token is checked by the domain, which answers its own reason (unsubscribe.ts)
const tokenQuery = z.object({
  token: z.string().meta({ description: 'the unsubscribe token from a governance mail (64 hex digits)' }),
});
const html = (description: string) => ({
  description,
  content: { 'text/html': { schema: z.string() } },
});

/** Plain routes (an HTML page, a form-encoded one-click POST), so their entries are written here. */
export const notificationsOpenApiPaths: ZodOpenApiPathsObject = {
  '/notifications/unsubscribe': {
    get: {
      tags: ['notifications'],
      summary:
        'Confirmation page for the unsubscribe link of a governance mail (changes nothing; its button POSTs). Token-authenticated, no session',
      requestParams: { query: tokenQuery },
      responses: {
        '200': html('A page asking to confirm'),
        '400': error('Invalid, unknown or expired token'),
      },
    },
    post: {
      tags: ['notifications'],
      summary:
        'Turn off email notifications (notifications.email) of the user the token was mailed to; also the RFC 8058 one-click target. Token-authenticated, no session',
      requestParams: { query: tokenQuery },
      requestBody: {
        required: false,
        content: {
          'application/x-www-form-urlencoded': {
            schema: z.object({ 'List-Unsubscribe': z.literal('One-Click').optional() }),
          },
        },
      },
      responses: {
        '200': {
          description: 'Unsubscribed (an HTML page when the request accepts text/html)',
          content: {
            'application/json': {
              schema: z.object({
                unsubscribed: z.literal(true),
                notifications: z.object({ email: z.literal(false) }),
              }),
            },
            'text/html': { schema: z.string() },
          },
        },
        '400': error('Invalid, unknown or expired token'),
        '413': error('A body larger than 8 KiB'),
      },
    },
  },
};
