import { storageOf } from '@plenum/api';
import { pinForCaller, pinView } from '@plenum/core';
import { callerOf, type RouteContext } from '../../http/routes';
import { writerWallet } from './respond';

/**
 * POST /ipfs/pin/{cid}: records the caller's pin at once and answers 201 (200 when the caller already
 * pins it); the node fetches and pins in the background. A plain route only because the status
 * depends on the outcome; the tRPC twin is `storage.pin`.
 */
export async function pinCid(rc: RouteContext) {
  await writerWallet(rc);
  const { pin, created } = await pinForCaller(storageOf(rc), {
    userId: callerOf(rc).userId,
    cid: rc.params.cid ?? '',
  });
  rc.reply.code(created ? 201 : 200);
  return pinView(pin);
}
