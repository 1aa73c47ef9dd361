import {
  AppError,
  listPinRequests,
  pinForCaller,
  pinOfUser,
  pinStatusView,
  removePins,
  replacePinRequest,
  type StorageServices,
} from '@plenum/core';
import { nulCharacterIssues, type psaPin as PsaPinSchema, psaListQuery, psaPin } from '@plenum/validators';
import type { z } from 'zod';
import { readBody, sendJson } from '../../http/respond';
import type { RouteContext } from '../../http/routes';
import { sendPsaError, sendPsaFailure, storageServices, writerWallet } from './respond';

/**
 * IPFS Pinning Service API v1.0.0 (ipfs/pinning-services-api-spec) over the same pin records as
 * /ipfs/pin: Kubo's `ipfs pin remote` can use Plenum with a personal access token.
 */
type Handler = (rc: RouteContext, svc: StorageServices, userId: string) => Promise<void>;

function psa(handler: Handler, opts: { write: boolean }) {
  return async (rc: RouteContext) => {
    if (!rc.principal)
      return sendPsaError(
        rc.res,
        401,
        'UNAUTHORIZED',
        'A valid access token is required (Authorization: Bearer …)',
      );
    try {
      if (opts.write) await writerWallet(rc);
      await handler(rc, storageServices(rc), rc.principal.userId);
    } catch (err) {
      sendPsaFailure(rc.res, rc.log, err);
    }
  };
}

const invalid = (issues: { path: string; message: string }[]) =>
  new AppError('BAD_REQUEST', 'Invalid input', { reason: 'BAD_REQUEST', issues });

/** the same validation as every other input: no NUL character anywhere (docs/api.md), then the schema */
function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const nul = nulCharacterIssues(value);
  if (nul.length) throw invalid(nul);
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw invalid(parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
  return parsed.data;
}

async function readPin(rc: RouteContext): Promise<z.output<typeof PsaPinSchema>> {
  let raw: Buffer;
  try {
    raw = await readBody(rc.req, 64 * 1024);
  } catch {
    throw new AppError('PAYLOAD_TOO_LARGE', 'The pin object exceeds 64 KiB');
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('BAD_REQUEST', 'The body must be a JSON pin object', { reason: 'BAD_REQUEST' });
  }
  return parseInput(psaPin, body);
}

const delegatesOf = (svc: StorageServices) => svc.storage.node.delegates();

export const listPins = psa(
  async (rc, svc, userId) => {
    const q = parseInput(psaListQuery, Object.fromEntries(rc.query));
    const { count, rows } = await listPinRequests(svc, userId, {
      ...q,
      before: q.before ? new Date(q.before) : undefined,
      after: q.after ? new Date(q.after) : undefined,
    });
    const delegates = await delegatesOf(svc);
    sendJson(rc.res, 200, { count, results: rows.map((r) => pinStatusView(r, delegates)) });
  },
  { write: false },
);

export const addPin = psa(
  async (rc, svc, userId) => {
    const pin = await readPin(rc);
    const { pin: row } = await pinForCaller(svc, { userId, ...pin });
    sendJson(rc.res, 202, pinStatusView(row, await delegatesOf(svc)));
  },
  { write: true },
);

export const getPin = psa(
  async (rc, svc, userId) => {
    const row = await pinOfUser(svc, userId, rc.params.requestid ?? '');
    sendJson(rc.res, 200, pinStatusView(row, await delegatesOf(svc)));
  },
  { write: false },
);

export const replacePin = psa(
  async (rc, svc, userId) => {
    const pin = await readPin(rc);
    const row = await replacePinRequest(svc, userId, rc.params.requestid ?? '', pin);
    if (!row) return sendPsaError(rc.res, 404, 'NOT_FOUND', 'No such pin request');
    sendJson(rc.res, 202, pinStatusView(row, await delegatesOf(svc)));
  },
  { write: true },
);

export const deletePin = psa(
  async (rc, svc, userId) => {
    const row = await pinOfUser(svc, userId, rc.params.requestid ?? '');
    const removed = await removePins(svc, row.cid, (rows) => rows.filter((r) => r.id === row.id));
    if (!removed.length) return sendPsaError(rc.res, 404, 'NOT_FOUND', 'No such pin request');
    rc.res.statusCode = 202;
    rc.res.end();
  },
  { write: true },
);
