import type { RouteSet } from '../../http/routes';
import { exportParams, exportQuery, governanceOpenApiPaths } from './openapi';
import { exportVotes } from './vote-export';

/** The governance domain's plain routes: the votes export (a streamed download in CSV or JSON). */
export const governanceRoutes: RouteSet = {
  routes: [
    {
      method: 'GET',
      path: '/votes/proposal/{proposalId}/export',
      operationId: 'governance-votes-export',
      access: 'public',
      params: exportParams,
      query: exportQuery,
      handler: exportVotes,
    },
  ],
  openapiPaths: governanceOpenApiPaths,
};
