import {
  createStorageRuntime,
  requeuePendingPins,
  type StorageServices,
  startPinVerifier,
} from '@plenum/core';
import type { PluginContext, ServerPlugin } from '../../http/routes';
import { downloadFile } from './file';
import { storageOpenApiPaths } from './openapi';
import { pinCid } from './pin';
import { addPin, deletePin, getPin, listPins, replacePin } from './pins-api';
import { uploadFile } from './upload';

/**
 * The storage domain: the IPFS node (embedded Helia or Kubo) and gateways, the `ipfs:pin` verifier,
 * and the plain routes (upload, raw file, pin with 201/200, the Pinning Service API).
 */
export async function storagePlugin({ svc, env }: PluginContext): Promise<ServerPlugin> {
  const runtime = await createStorageRuntime({
    dataDir: env.dataDir,
    apiUrl: env.IPFS_API_URL,
    nodeUrl: env.IPFS_NODE_URL,
    gatewayUrls: env.IPFS_GATEWAY_URLS,
    timeoutMs: env.IPFS_TIMEOUT,
  });
  svc.storage = runtime;
  svc.ipfsHealth = async () => ({ provider: runtime.node.name, ok: (await runtime.node.status()).ok });
  const storageSvc = svc as unknown as StorageServices;
  const stopVerifier = startPinVerifier(storageSvc);
  const requeued = await requeuePendingPins(storageSvc);
  if (requeued) svc.log.info({ requeued }, 'pins left pinning by the last run were queued again');
  return {
    name: 'storage',
    routes: [
      { method: 'POST', path: '/ipfs/upload', handler: uploadFile },
      { method: 'GET', path: '/ipfs/file/{cid}', handler: downloadFile },
      { method: 'POST', path: '/ipfs/pin/{cid}', noBody: true, handler: pinCid },
      { method: 'GET', path: '/pins', handler: listPins },
      { method: 'POST', path: '/pins', handler: addPin },
      { method: 'GET', path: '/pins/{requestid}', handler: getPin },
      { method: 'POST', path: '/pins/{requestid}', handler: replacePin },
      { method: 'DELETE', path: '/pins/{requestid}', handler: deletePin },
    ],
    openapiPaths: storageOpenApiPaths,
    async stop() {
      stopVerifier();
      await runtime.stop();
      delete svc.storage;
      delete svc.ipfsHealth;
    },
  };
}
