import type { CID } from 'multiformats/cid';
import { AppError, badRequest } from '../shared/errors';
import { parseCid } from './cid';
import type { SessionEntity } from './internal-events';
import { type DetectedType, detectType, SNIFF_BYTES } from './mime';
import { type AttemptKind, type ContentSource, failureOf, findProviderError } from './provider';
import type { StorageServices } from './runtime';
import { requireReadable } from './visibility';

type Order = 'node-first' | 'gateways-first';

/**
 * Opens the content from the first provider that has it: data reads ask the node first, file reads the
 * gateways first (docs/storage.md, "Providers"). When none has it: 404, 504 (all timed out) or 502.
 */
export async function openFromProviders(
  svc: StorageServices,
  cid: CID,
  order: Order,
  signal?: AbortSignal,
): Promise<ContentSource & { provider: string }> {
  const { node, gateways } = svc.storage;
  const providers = [
    { name: node.name, open: () => node.open(cid, { signal }) },
    { name: 'gateway', open: () => gateways.open(cid, { signal }) },
  ];
  if (order === 'gateways-first') providers.reverse();
  const kinds: AttemptKind[] = [];
  for (const p of providers) {
    try {
      return { ...(await p.open()), provider: p.name };
    } catch (err) {
      if (signal?.aborted) throw err;
      if ((err as Error).name === 'NotAFileError' || (err as Error).name === 'NotUnixFSError')
        throw badRequest(`${cid} is not a file`, undefined, 'NOT_A_FILE');
      const pe = findProviderError(err);
      if (!pe) svc.log.warn({ err, cid: cid.toString(), provider: p.name }, 'IPFS provider failed');
      kinds.push(...(pe ? pe.attempts : ['error' as const]));
    }
  }
  throw failureOf(kinds, cid.toString());
}

/** GET /ipfs/{cid}: the content as JSON when it parses, else as text; ≤ maxContentBytes, UTF-8 only. */
export async function getContent(
  svc: StorageServices,
  params: { cid: string; requester: SessionEntity | null },
) {
  const { cid, text } = parseCid(params.cid);
  await requireReadable(svc, { cid: text, userId: params.requester?.userId });
  const bytes = await readAll(svc, { cid, max: svc.config.storage.maxContentBytes });
  svc.storage.events.emit('ipfs:read', { cid: text, requester: params.requester });
  let str: string;
  try {
    str = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The content is not UTF-8 text; use GET /ipfs/file/{cid}', {
      reason: 'NOT_TEXT',
    });
  }
  try {
    return JSON.parse(str) as unknown;
  } catch {
    return str;
  }
}

export async function readAll(svc: StorageServices, params: { cid: CID; max: number }): Promise<Uint8Array> {
  const { cid, max } = params;
  const source = await openFromProviders(svc, cid, 'node-first');
  if (source.size !== undefined && source.size > max) throw contentTooLarge(max);
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of source.chunks) {
      size += chunk.length;
      if (size > max) throw contentTooLarge(max);
      parts.push(chunk);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const pe = findProviderError(err);
    throw failureOf(pe ? pe.attempts : ['error'], cid.toString());
  }
  return Buffer.concat(parts);
}

const contentTooLarge = (max: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `The content exceeds ${max} bytes; use GET /ipfs/file/{cid}`, {
    reason: 'CONTENT_TOO_LARGE',
  });

export interface OpenedFile {
  cid: string;
  /** false for a file only some may read: shared caches must not keep it */
  public: boolean;
  size: number | undefined;
  type: DetectedType;
  chunks: AsyncIterable<Uint8Array>;
}

/**
 * GET /ipfs/file/{cid}: gateways first, then the node; the type is detected from the first bytes. A file
 * the requester may not read is a 404 like an absent one; `checked` skips that (a signed link checked it).
 */
export async function openFile(
  svc: StorageServices,
  params: {
    cid: string;
    requester: SessionEntity | null;
    signal?: AbortSignal;
    checked?: { public: boolean };
  },
): Promise<OpenedFile> {
  const { cid, text } = parseCid(params.cid);
  const open =
    params.checked?.public ?? (await requireReadable(svc, { cid: text, userId: params.requester?.userId }));
  const source = await openFromProviders(svc, cid, 'gateways-first', params.signal);
  const it = source.chunks[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let done = false;
  try {
    while (headBytes < SNIFF_BYTES) {
      const next = await it.next();
      if (next.done) {
        done = true;
        break;
      }
      head.push(next.value);
      headBytes += next.value.length;
    }
  } catch (err) {
    const pe = findProviderError(err);
    throw failureOf(pe ? pe.attempts : ['error'], text);
  }
  const type = await detectType(Buffer.concat(head));
  svc.storage.events.emit('ipfs:read', { cid: text, requester: params.requester });
  return {
    cid: text,
    public: open,
    size: source.size,
    type,
    chunks: {
      async *[Symbol.asyncIterator]() {
        yield* head;
        if (done) return;
        while (true) {
          const next = await it.next();
          if (next.done) return;
          yield next.value;
        }
      },
    },
  };
}
