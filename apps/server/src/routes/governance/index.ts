import type { RouteSet } from '../../http/routes';
import { governanceOpenApiPaths } from './openapi';
import { exportVotes } from './vote-export';

/** The governance domain's plain routes: the votes export (a streamed download in CSV or JSON). */
export const governanceRoutes: RouteSet = {
  routes: [
    { method: 'GET', path: '/votes/proposal/{proposalId}/export', access: 'public', handler: exportVotes },
  ],
  openapiPaths: governanceOpenApiPaths,
};
