import {
  AppError,
  csvHeader,
  csvRecords,
  type ExportedVote,
  jsonClose,
  jsonElements,
  jsonOpen,
  openVoteExport,
  type VoteExportFormat,
} from '@plenum/core';
import type { RouteContext } from '../../http/routes';
import { ExportBody } from '../../http/stream-body';

/** an export refused for load asks the client to come back after this */
const EXPORTS_BUSY_RETRY_SECONDS = 5;

/**
 * The exports streaming now on one instance, in all and by client IP (docs/governance.md, "Exporting the
 * votes"): each costs a page query at a time and a response buffer for as long as its client reads, so
 * their number is capped per instance (EXPORT_MAX_CONCURRENT) and per client (EXPORT_MAX_PER_CLIENT).
 */
class ExportSlots {
  private total = 0;
  private readonly byIp = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly maxPerClient: number,
  ) {}

  /** a slot for `ip`, released by the function returned (once), or a 429 EXPORTS_BUSY */
  take(ip: string): () => void {
    const mine = this.byIp.get(ip) ?? 0;
    if (this.total >= this.max || mine >= this.maxPerClient)
      throw new AppError(
        'TOO_MANY_REQUESTS',
        mine >= this.maxPerClient
          ? `At most ${this.maxPerClient} exports at once per client; try again when one has finished`
          : 'Too many exports are running on this server; try again shortly',
        { reason: 'EXPORTS_BUSY', retryAfterSeconds: EXPORTS_BUSY_RETRY_SECONDS },
      );
    this.total++;
    this.byIp.set(ip, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.byIp.get(ip) ?? 1) - 1;
      if (left) this.byIp.set(ip, left);
      else this.byIp.delete(ip);
    };
  }
}

/** one set of slots per app (tests run several apps in one process) */
const slotsOf = new WeakMap<object, ExportSlots>();
export function exportSlots(svc: RouteContext['svc']): ExportSlots {
  let slots = slotsOf.get(svc);
  if (!slots) {
    const limits = svc.config.governance.exports ?? { maxConcurrent: 8, maxPerClient: 2 };
    slots = new ExportSlots(limits.maxConcurrent, limits.maxPerClient);
    slotsOf.set(svc, slots);
  }
  return slots;
}

const CONTENT_TYPES: Record<VoteExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/**
 * GET /votes/proposal/{proposalId}/export?format=csv|json: every counted vote of a proposal as a download
 * (docs/governance.md, "Exporting the votes"), streamed from the database as it is read, one short
 * query per page, so a slow client holds no connection. HEAD answers the headers without reading any vote.
 */
export async function exportVotes(rc: RouteContext) {
  const { request, reply, svc, log } = rc;
  // checked before the handler against the route's params and query (index.ts)
  const proposalId = rc.params.proposalId!;
  const format = rc.query.get('format') as VoteExportFormat;
  // HEAD reads no vote: it takes no slot
  const release =
    request.method === 'HEAD' ? () => {} : exportSlots(svc).take(request.plenum?.ip ?? request.ip);
  let votes: Awaited<ReturnType<typeof openVoteExport>>;
  try {
    votes = await openVoteExport(svc, { proposalId });
  } catch (err) {
    release();
    throw err;
  }
  reply.headers({
    'Content-Type': CONTENT_TYPES[format],
    'Content-Disposition': `attachment; filename="${votes.filename(format)}"`,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
  if (request.method === 'HEAD') return reply.send();

  const body = new ExportBody();
  // the slot is the export's until its body ends: read to the end, cut off, or its client gone
  body.once('close', release);
  const csv = format === 'csv';
  // the header goes out with the first rows, so a client that sees bytes knows the snapshot is taken
  const opening = csv ? csvHeader() : jsonOpen();
  let started = false;
  const onRows = async (rows: ExportedVote[]) => {
    const text = csv ? csvRecords(rows) : jsonElements(rows, !started);
    await body.write(started ? text : opening + text);
    started = true;
  };
  votes
    .read({ onRows, signal: body.gone.signal })
    .then(() => {
      if (!started) body.push(opening);
      if (!csv) body.push(jsonClose(!started));
      body.finish();
    })
    .catch((err: unknown) => {
      if (body.gone.signal.aborted) {
        log.debug({ err, proposalId }, 'vote export ended early: the client went away');
        return;
      }
      log.error({ err, proposalId }, 'vote export failed');
      body.destroy(err instanceof Error ? err : new Error(String(err)));
    });
  return reply.send(body);
}
