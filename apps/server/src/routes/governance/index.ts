import type { RouteSet } from '../../http/routes';
import { exportParams, exportQuery, governanceOpenApiPaths } from './openapi';
import { recordCar } from './record-car';
import { exportVotes } from './vote-export';

/**
 * The governance domain's plain routes, streamed downloads: the votes export (CSV or JSON) and a closed
 * proposal's record (CAR).
 */
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
    {
      method: 'GET',
      path: '/proposals/{proposalId}/record.car',
      operationId: 'governance-proposal-record-car',
      access: 'public',
      params: exportParams,
      handler: recordCar,
    },
  ],
  openapiPaths: governanceOpenApiPaths,
};
