import { assertCanUploadAvatar, badRequest, saveAvatar } from '@plenum/core';
import { receiveFile } from '../../http/multipart';
import { callerOf, type RouteContext } from '../../http/routes';

/** room for the multipart boundaries and part headers around the file itself */
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * PUT /users/{id}/avatar: multipart field `avatar`, streamed through busboy into core's saveAvatar, which
 * sniffs the type and cuts the size off while the bytes arrive. Every refusal is a 400 naming the rule.
 */
export async function uploadAvatar(rc: RouteContext) {
  const { request, svc } = rc;
  const id = rc.params.id!;
  const { userId, role } = callerOf(rc);
  const actor = { userId, role };
  await assertCanUploadAvatar(svc, { actor, id });
  const max = svc.config.users.maxAvatarSize;
  if (Number(request.headers['content-length']) > max + MULTIPART_OVERHEAD)
    throw badRequest(`The avatar is larger than ${max} bytes`, undefined, 'AVATAR_TOO_LARGE');
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? ''))
    throw badRequest(
      'Send the picture as multipart/form-data in the field "avatar"',
      undefined,
      'MULTIPART_REQUIRED',
    );
  return receiveFile(request.raw, {
    field: 'avatar',
    maxFileSize: max,
    save: ({ stream }) => saveAvatar(svc, { actor, id, source: stream }),
    missing: () => badRequest('No file in the multipart field "avatar"', undefined, 'AVATAR_MISSING'),
  });
}
