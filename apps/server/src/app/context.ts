import type { ApiServices, Context } from '@plenum/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Env } from '../env';
import { secureCookies, writeSessionCookie } from '../http/cookies';
import { setBrowserCookie } from '../routes/auth/oidc';

export type ContextFor = (
  request: FastifyRequest,
  reply: FastifyReply | null,
  transport: Context['transport'],
) => Context;

/**
 * A procedure's context for an HTTP request (tRPC or REST): the caller the pipeline authenticated
 * (http/pipeline.ts), the client's addresses, and the session cookie to set on the reply.
 */
export function httpContext(svc: ApiServices, env: Env): ContextFor {
  return (request, reply, transport) => {
    const state = request.plenum!;
    return {
      svc,
      principal: state.principal,
      token: state.token,
      ip: state.ip,
      socketAddress: request.raw.socket.remoteAddress ?? null,
      userAgent: request.headers['user-agent'] ?? null,
      requestId: request.id,
      transport,
      setSessionCookie(token, { maxAgeSeconds }) {
        if (reply) writeSessionCookie(reply, token, maxAgeSeconds, secureCookies(request, env.APP_URL));
      },
      setBrowserBinding(token, maxAgeSeconds) {
        if (reply) setBrowserCookie(reply, token, maxAgeSeconds, secureCookies(request, env.APP_URL));
      },
      setHeader(name, value) {
        reply?.header(name, value);
      },
    };
  };
}
