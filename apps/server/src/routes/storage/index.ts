import { LINK_PATH } from '@plenum/core';
import type { RouteSet } from '../../http/routes';
import { importCarRoute } from './car';
import { downloadFile, downloadShared } from './file';
import { listFolderRoute } from './folder';
import {
  cidParams,
  cidPathParams,
  lsQuery,
  requestidParams,
  storageOpenApiPaths,
  tokenParams,
  visibilityQuery,
} from './openapi';
import { pinCid } from './pin';
import { addPin, deletePin, getPin, listPins, replacePin } from './pins-api';
import { uploadFile } from './upload';

/** the Pinning Service API reads pin objects of a few hundred bytes */
const PIN_BODY_LIMIT = 64 * 1024;

/**
 * The storage domain's plain routes: upload, raw file, pin with 201/200, the Pinning Service API (its
 * own error body). The IPFS node and the pin verifier are started with the services (services.ts).
 */
export const storageRoutes: RouteSet = {
  routes: [
    {
      method: 'POST',
      path: '/ipfs/upload',
      operationId: 'storage-upload',
      access: 'active',
      scope: 'storage',
      handler: uploadFile,
    },
    {
      method: 'GET',
      path: '/ipfs/file/{cid}',
      operationId: 'storage-file',
      access: 'public',
      optionalAuth: true,
      params: cidParams,
      handler: downloadFile,
    },
    // folders and CAR import (docs/storage.md, "Folders and several files", "CAR import")
    {
      method: 'GET',
      path: '/ipfs/file/{cid}/{path}',
      operationId: 'storage-file-path',
      access: 'public',
      optionalAuth: true,
      params: cidPathParams,
      restParam: 'path',
      handler: downloadFile,
    },
    {
      method: 'GET',
      path: '/ipfs/ls/{cid}',
      operationId: 'storage-ls',
      access: 'public',
      optionalAuth: true,
      params: cidParams,
      query: lsQuery,
      handler: listFolderRoute,
    },
    {
      method: 'POST',
      path: '/ipfs/car',
      operationId: 'storage-car',
      access: 'active',
      scope: 'storage',
      query: visibilityQuery,
      handler: importCarRoute,
    },
    {
      method: 'POST',
      path: '/ipfs/pin/{cid}',
      operationId: 'storage-pin',
      access: 'active',
      scope: 'storage',
      params: cidParams,
      query: visibilityQuery,
      bodyLimit: PIN_BODY_LIMIT,
      handler: pinCid,
    },
    {
      method: 'GET',
      path: `${LINK_PATH}{token}`,
      operationId: 'storage-shared-file',
      access: 'public',
      params: tokenParams,
      handler: downloadShared,
    },
    // the Pinning Service API, under the operationIds of its specification; its writes are storage writes
    ...(
      [
        ['GET', '/pins', 'getPins', 'member', listPins],
        ['POST', '/pins', 'addPin', 'active', addPin],
        ['GET', '/pins/{requestid}', 'getPinByRequestId', 'member', getPin, requestidParams],
        ['POST', '/pins/{requestid}', 'replacePinByRequestId', 'active', replacePin, requestidParams],
        ['DELETE', '/pins/{requestid}', 'deletePinByRequestId', 'active', deletePin, requestidParams],
      ] as const
    ).map(([method, path, operationId, access, handler, params]) => ({
      method,
      path,
      operationId,
      access,
      scope: method === 'GET' ? ('read' as const) : ('storage' as const),
      handler,
      ...(params ? { params } : {}),
      errorFormat: 'psa' as const,
      bodyLimit: PIN_BODY_LIMIT,
    })),
  ],
  openapiPaths: storageOpenApiPaths,
};
