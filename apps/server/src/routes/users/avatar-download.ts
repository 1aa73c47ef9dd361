import { createReadStream } from 'node:fs';
import { locateAvatar } from '@plenum/core';
import type { RouteContext } from '../../http/routes';

/**
 * GET /users/{id}/avatar: the stored bytes with the type recognised at upload, never sniffed by the
 * browser (nosniff) and inert if opened directly (a CSP that allows nothing, sandboxed).
 */
export async function downloadAvatar(rc: RouteContext) {
  const { request, reply, svc, log } = rc;
  const id = rc.params.id!;
  const p = rc.principal;
  const avatar = await locateAvatar(svc, { requester: p ? { userId: p.userId, role: p.role } : null, id });
  reply.headers({
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Content-Disposition': 'inline',
    // one URL per user, so caches revalidate; the ETag changes with every new picture
    'Cache-Control': 'private, no-cache',
    ETag: avatar.etag,
  });
  if (request.headers['if-none-match'] === avatar.etag) return reply.code(304).send();
  reply.type(avatar.mime).header('Content-Length', String(avatar.size));
  if (request.method === 'HEAD') return reply.send();
  const file = createReadStream(avatar.file);
  file.on('error', (err) => log.warn({ err }, 'reading the avatar failed'));
  return reply.send(file);
}
