import { storageOf } from '@plenum/api';
import { AppError, pinForCaller, pinView } from '@plenum/core';
import { OtherBody } from '../../http/body';
import { callerOf, type RouteContext } from '../../http/routes';
import { writerWallet } from './respond';
import { readVisibility } from './visibility';

/**
 * POST /ipfs/pin/{cid}: records the caller's pin at once and answers 201 (200 when the caller already
 * pins it); the node fetches and pins in the background. A plain route only because the status
 * depends on the outcome; the tRPC twin is `storage.pin`.
 */
export async function pinCid(rc: RouteContext) {
  await writerWallet(rc);
  const body = rc.request.body;
  if (body instanceof OtherBody)
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send visibility as JSON or in the query');
  // visibility and daoId in the query or a JSON body (the body wins)
  const fromBody = readVisibility(body as Record<string, unknown> | undefined, { strict: true });
  const visibility = { ...readVisibility(Object.fromEntries(rc.query)), ...fromBody };
  const { pin, created } = await pinForCaller(storageOf(rc), {
    userId: callerOf(rc).userId,
    cid: rc.params.cid ?? '',
    ...visibility,
  });
  rc.reply.code(created ? 201 : 200);
  return pinView(pin);
}
