import { pinForCaller, pinView } from '@plenum/core';
import { sendJson } from '../../http/respond';
import type { RouteContext } from '../../http/routes';
import { sendFailure, storageServices, writerWallet } from './respond';

/**
 * POST /ipfs/pin/{cid}: records the caller's pin at once and answers 201 (200 when the caller already
 * pins it); the node fetches and pins in the background. A plain route only because the status
 * depends on the outcome; the tRPC twin is `storage.pin`.
 */
export async function pinCid(rc: RouteContext) {
  try {
    await writerWallet(rc);
    const { pin, created } = await pinForCaller(storageServices(rc), {
      userId: rc.principal!.userId,
      cid: rc.params.cid ?? '',
    });
    sendJson(rc.res, created ? 201 : 200, pinView(pin));
  } catch (err) {
    sendFailure(rc.res, rc.log, err);
  }
}
