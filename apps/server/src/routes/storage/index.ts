import type { RouteSet } from '../../http/routes';
import { downloadFile } from './file';
import { storageOpenApiPaths } from './openapi';
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
    { method: 'POST', path: '/ipfs/upload', access: 'active', handler: uploadFile },
    { method: 'GET', path: '/ipfs/file/{cid}', access: 'public', handler: downloadFile },
    { method: 'POST', path: '/ipfs/pin/{cid}', access: 'active', noBody: true, handler: pinCid },
    ...(
      [
        ['GET', '/pins', 'member', listPins],
        ['POST', '/pins', 'active', addPin],
        ['GET', '/pins/{requestid}', 'member', getPin],
        ['POST', '/pins/{requestid}', 'active', replacePin],
        ['DELETE', '/pins/{requestid}', 'active', deletePin],
      ] as const
    ).map(([method, path, access, handler]) => ({
      method,
      path,
      access,
      handler,
      errorFormat: 'psa' as const,
      bodyLimit: PIN_BODY_LIMIT,
    })),
  ],
  openapiPaths: storageOpenApiPaths,
};
