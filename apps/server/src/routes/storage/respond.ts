import type { ServerResponse } from 'node:http';
import { AppError, type Logger, ownerWalletOf, type StorageServices } from '@plenum/core';
import { isConnectionError } from '@plenum/db';
import { sendError, sendJson } from '../../http/respond';
import type { RouteContext } from '../../http/routes';

/**
 * Domain errors in the one error body (docs/api.md, "Errors"); anything unexpected is logged and answered
 * without details.
 */
export function sendFailure(
  res: ServerResponse,
  log: Logger,
  err: unknown,
  headers?: Record<string, string>,
) {
  if (err instanceof AppError)
    return sendError(res, err.code, err.message, {
      reason: err.reason,
      issues: err.issues,
      ...(headers ? { headers } : {}),
    });
  if (isConnectionError(err))
    return sendError(res, 'SERVICE_UNAVAILABLE', 'The database is unreachable', {
      reason: 'DATABASE_UNAVAILABLE',
    });
  log.error({ err }, 'storage route failed');
  return sendError(res, 'INTERNAL_SERVER_ERROR', 'Internal server error');
}

export const storageServices = (rc: RouteContext) => rc.svc as unknown as StorageServices;

/**
 * A storage write: signed in (401), active while email verification is required (403
 * EMAIL_NOT_VERIFIED), acting for the caller's primary wallet (403 WALLET_REQUIRED). Returns the wallet.
 */
export async function writerWallet(rc: RouteContext): Promise<string> {
  const { principal, svc } = rc;
  if (!principal) throw new AppError('UNAUTHORIZED', 'Sign in first', { reason: 'NOT_SIGNED_IN' });
  if (svc.config.emailVerificationRequired && principal.status !== 'active')
    throw new AppError('FORBIDDEN', 'Verify your email address first', { reason: 'EMAIL_NOT_VERIFIED' });
  return ownerWalletOf(svc, principal.userId);
}

/** The Pinning Service API's own error body: `{ error: { reason, details } }` */
export function sendPsaError(res: ServerResponse, status: number, reason: string, details?: string) {
  sendJson(
    res,
    status,
    { error: { reason, ...(details ? { details } : {}) } },
    status === 401 ? { 'WWW-Authenticate': 'Bearer' } : status === 503 ? { 'Retry-After': '1' } : {},
  );
}

const PSA_STATUS: Record<string, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
};

export function sendPsaFailure(res: ServerResponse, log: Logger, err: unknown) {
  if (err instanceof AppError) {
    const details = err.issues?.length
      ? `${err.message}: ${err.issues.map((i) => `${i.path} ${i.message}`).join('; ')}`
      : err.message;
    return sendPsaError(res, PSA_STATUS[err.code] ?? 500, err.reason ?? err.code, details);
  }
  if (isConnectionError(err))
    return sendPsaError(res, 503, 'DATABASE_UNAVAILABLE', 'The database is unreachable');
  log.error({ err }, 'pinning service route failed');
  return sendPsaError(res, 500, 'INTERNAL_SERVER_ERROR', 'Internal server error');
}
