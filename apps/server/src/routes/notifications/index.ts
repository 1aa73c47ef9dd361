import type { RouteSet } from '../../http/routes';
import { notificationsOpenApiPaths } from './openapi';
import { confirmUnsubscribe, unsubscribe } from './unsubscribe';

/** Governance mail unsubscribe links (token-authenticated, no session): a confirmation page and the POST. */
export const notificationsRoutes: RouteSet = {
  routes: [
    {
      method: 'GET',
      path: '/notifications/unsubscribe',
      operationId: 'notifications-unsubscribe-confirm',
      access: 'public',
      handler: confirmUnsubscribe,
    },
    {
      method: 'POST',
      path: '/notifications/unsubscribe',
      operationId: 'notifications-unsubscribe',
      access: 'public',
      // a change of the account's mail preferences, whatever authenticates it
      scope: 'account',
      handler: unsubscribe,
    },
  ],
  openapiPaths: notificationsOpenApiPaths,
};
