import { CarWriter } from '@ipld/car';
import { openRecordCar } from '@plenum/core';
import type { RouteContext } from '../../http/routes';
import { ExportBody } from '../../http/stream-body';
import { exportSlots } from './vote-export';

/**
 * GET /proposals/{proposalId}/record.car: a closed proposal's whole record as one CARv1 file whose one root
 * is the record's CID (docs/governance.md, "The proposal record"). Built from the stored rows as it is
 * sent, one page of votes at a time, so memory stays bounded whatever the number of ballots; it takes one
 * of the export slots, as a votes export does. HEAD answers the headers without building anything.
 */
export async function recordCar(rc: RouteContext) {
  const { request, reply, svc, log } = rc;
  const proposalId = rc.params.proposalId!;
  const release =
    request.method === 'HEAD' ? () => {} : exportSlots(svc).take(request.plenum?.ip ?? request.ip);
  let record: Awaited<ReturnType<typeof openRecordCar>>;
  try {
    record = await openRecordCar(svc, { proposalId });
  } catch (err) {
    release();
    throw err;
  }
  reply.headers({
    'Content-Type': 'application/vnd.ipld.car; version=1',
    'Content-Disposition': `attachment; filename="${record.filename}"`,
    'X-Content-Type-Options': 'nosniff',
    // the record never changes once fixed: its CID names it
    'Cache-Control': 'public, max-age=31536000, immutable',
    ETag: `"${record.recordCid}"`,
  });
  if (request.method === 'HEAD') return reply.send();

  const body = new ExportBody();
  body.once('close', release);
  const { writer, out } = CarWriter.create([record.root]);
  const feeding = (async () => {
    try {
      for await (const block of record.blocks()) {
        body.gone.signal.throwIfAborted();
        await writer.put(block as never);
      }
    } finally {
      await writer.close();
    }
  })();
  (async () => {
    for await (const chunk of out) await body.write(chunk);
    await feeding;
    body.finish();
  })().catch((err: unknown) => {
    if (body.gone.signal.aborted) {
      log.debug({ err, proposalId }, 'record download ended early: the client went away');
      return;
    }
    log.error({ err, proposalId }, 'record download failed');
    body.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  feeding.catch(() => {});
  return reply.send(body);
}
