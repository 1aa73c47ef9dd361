import { createReadStream } from 'node:fs';
import { locateAvatar } from '@plenum/core';
import type { RouteContext } from '../../http/routes';
import { parseUserId, sendFailure } from './errors';

/**
 * GET /users/{id}/avatar: the stored bytes with the type recognised at upload, never sniffed by the
 * browser (nosniff) and inert if opened directly (a CSP that allows nothing, sandboxed).
 */
export async function downloadAvatar(rc: RouteContext) {
  const { req, res, svc, log } = rc;
  const id = parseUserId(res, rc.params.id);
  if (!id) return;
  let avatar: Awaited<ReturnType<typeof locateAvatar>>;
  try {
    const p = rc.principal;
    avatar = await locateAvatar(svc, { requester: p ? { userId: p.userId, role: p.role } : null, id });
  } catch (err) {
    return sendFailure(res, log, err);
  }
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
  res.setHeader('Content-Disposition', 'inline');
  // one URL per user, so caches revalidate; the ETag changes with every new picture
  res.setHeader('Cache-Control', 'private, no-cache');
  res.setHeader('ETag', avatar.etag);
  if (req.headers['if-none-match'] === avatar.etag) {
    res.statusCode = 304;
    return void res.end();
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', avatar.mime);
  res.setHeader('Content-Length', String(avatar.size));
  if (req.method === 'HEAD') return void res.end();
  await new Promise<void>((resolve) => {
    const file = createReadStream(avatar.file);
    file.on('error', (err) => {
      log.warn({ err }, 'reading the avatar failed');
      res.destroy();
      resolve();
    });
    file.on('end', resolve);
    file.pipe(res);
  });
}
