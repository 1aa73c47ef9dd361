import { storageOf, zodIssuesToFieldIssues } from '@plenum/api';
import {
  AppError,
  listPinRequests,
  pinForCaller,
  pinOfUser,
  pinStatusView,
  removePins,
  replacePinRequest,
  type StorageServices,
  type VisibilityRequest,
} from '@plenum/core';
import { nulCharacterIssues, type psaPin as PsaPinSchema, psaListQuery, psaPin } from '@plenum/validators';
import type { z } from 'zod';
import { OtherBody } from '../../http/body';
import { callerOf, type RouteContext } from '../../http/routes';
import { writerWallet } from './respond';
import { readVisibility } from './visibility';

/**
 * IPFS Pinning Service API v1.0.0 (ipfs/pinning-services-api-spec) over the same pin records as
 * /ipfs/pin: Kubo's `ipfs pin remote` can use Plenum with a personal access token. Its routes declare
 * `errorFormat: 'psa'`: errors take that API's own body (http/errors.ts).
 */
type Handler = (rc: RouteContext, svc: StorageServices, userId: string) => Promise<unknown>;

const psa = (handler: Handler) => async (rc: RouteContext) => handler(rc, storageOf(rc), callerOf(rc).userId);

const invalid = (issues: { path: string; message: string }[]) =>
  new AppError('BAD_REQUEST', 'Invalid input', { reason: 'BAD_REQUEST', issues });

/** the same validation as every other input: no NUL character anywhere (docs/api.md), then the schema */
function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const nul = nulCharacterIssues(value);
  if (nul.length) throw invalid(nul);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(zodIssuesToFieldIssues(parsed.error.issues));
  return parsed.data;
}

/** the pin object, with `meta.visibility` and `meta.daoId` as the pin's visibility (docs/storage.md) */
function readPin(rc: RouteContext): z.output<typeof PsaPinSchema> & VisibilityRequest {
  if (rc.request.body === undefined || rc.request.body instanceof OtherBody)
    throw new AppError('BAD_REQUEST', 'The body must be a JSON pin object', { reason: 'BAD_REQUEST' });
  const pin = parseInput(psaPin, rc.request.body);
  return { ...pin, ...readVisibility(pin.meta) };
}

const delegatesOf = (svc: StorageServices) => svc.storage.node.delegates();

export const listPins = psa(async (rc, svc, userId) => {
  const q = parseInput(psaListQuery, Object.fromEntries(rc.query));
  const { count, rows } = await listPinRequests(svc, {
    userId,
    ...q,
    before: q.before ? new Date(q.before) : undefined,
    after: q.after ? new Date(q.after) : undefined,
  });
  const delegates = await delegatesOf(svc);
  return { count, results: rows.map((r) => pinStatusView(r, delegates)) };
});

export const addPin = psa(async (rc, svc, userId) => {
  await writerWallet(rc);
  const pin = readPin(rc);
  const { pin: row } = await pinForCaller(svc, { userId, ...pin });
  rc.reply.code(202);
  return pinStatusView(row, await delegatesOf(svc));
});

export const getPin = psa(async (rc, svc, userId) => {
  const row = await pinOfUser(svc, { userId, id: rc.params.requestid ?? '' });
  return pinStatusView(row, await delegatesOf(svc));
});

const noSuchPin = () => new AppError('NOT_FOUND', 'No such pin request', { reason: 'NOT_FOUND' });

export const replacePin = psa(async (rc, svc, userId) => {
  await writerWallet(rc);
  const pin = readPin(rc);
  const row = await replacePinRequest(svc, { userId, id: rc.params.requestid ?? '', pin });
  if (!row) throw noSuchPin();
  rc.reply.code(202);
  return pinStatusView(row, await delegatesOf(svc));
});

export const deletePin = psa(async (rc, svc, userId) => {
  await writerWallet(rc);
  const row = await pinOfUser(svc, { userId, id: rc.params.requestid ?? '' });
  const removed = await removePins(svc, {
    cid: row.cid,
    which: (rows) => rows.filter((r) => r.id === row.id),
  });
  if (!removed.length) throw noSuchPin();
  return rc.reply.code(202).send();
});
