import { assertCanUploadAvatar, badRequest, type Principal, saveAvatar, unauthorized } from '@plenum/core';
import { receiveFile } from '../../http/multipart';
import { sendJson } from '../../http/respond';
import type { RouteContext } from '../../http/routes';
import { parseUserId, sendFailure } from './errors';

/** room for the multipart boundaries and part headers around the file itself */
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * PUT /users/{id}/avatar: multipart field `avatar`, streamed through busboy into core's saveAvatar, which
 * sniffs the type and cuts the size off while the bytes arrive. Every refusal is a 400 naming the rule.
 */
export async function uploadAvatar(rc: RouteContext) {
  const { req, res, svc, log } = rc;
  const fail = (err: unknown) => {
    // stop parsing; Node discards whatever of the body is still arriving once the reply is sent
    req.unpipe();
    req.resume();
    sendFailure(res, log, err);
  };
  const id = parseUserId(res, rc.params.id);
  if (!id) return void req.resume();
  if (!rc.principal) return fail(unauthorized('Sign in first', 'NOT_SIGNED_IN'));
  const actor = actorOf(rc.principal);
  try {
    await assertCanUploadAvatar(svc, { actor, id });
  } catch (err) {
    return fail(err);
  }
  const max = svc.config.users.maxAvatarSize;
  if (Number(req.headers['content-length']) > max + MULTIPART_OVERHEAD)
    return fail(badRequest(`The avatar is larger than ${max} bytes`, undefined, 'AVATAR_TOO_LARGE'));
  if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? ''))
    return fail(
      badRequest(
        'Send the picture as multipart/form-data in the field "avatar"',
        undefined,
        'MULTIPART_REQUIRED',
      ),
    );

  try {
    const result = await receiveFile(req, {
      field: 'avatar',
      maxFileSize: max,
      save: ({ stream }) => saveAvatar(svc, { actor, id, source: stream }),
      missing: () => badRequest('No file in the multipart field "avatar"', undefined, 'AVATAR_MISSING'),
    });
    sendJson(res, 200, result);
  } catch (err) {
    fail(err);
  }
}

const actorOf = (p: Principal) => ({ userId: p.userId, role: p.role });
