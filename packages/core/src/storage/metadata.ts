import { AppError } from '../shared/errors';
import { looksLikeCid, parseCidRef } from './cid';
import type { SessionEntity } from './internal-events';
import { readAll } from './read';
import type { StorageServices } from './runtime';
import { requireReadable } from './visibility';

const IMAGE_KEYS: ReadonlySet<string> = new Set([
  'image',
  'image_url',
  'imageUrl',
  'animation_url',
  'icon',
  'logo',
]);
const MAX_DEPTH = 32;

/**
 * GET /ipfs/metadata/{cid}: a JSON document (e.g. NFT or DAO metadata) with the image-like fields at
 * any depth turned from `ipfs://…` or bare CIDs into gateway URLs (this server's /ipfs/file/{cid}
 * without a gateway), and base64 `data:` JSON or text decoded in place.
 */
export async function getMetadata(
  svc: StorageServices,
  params: { ref: string; requester: SessionEntity | null },
) {
  const ref = parseCidRef(params.ref);
  await requireReadable(svc, { cid: ref.text, userId: params.requester?.userId });
  const bytes = await readAll(svc, { cid: ref.cid, max: svc.config.storage.maxContentBytes });
  svc.storage.events.emit('ipfs:read', { cid: ref.text, requester: params.requester });
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    doc = undefined;
  }
  if (doc === null || typeof doc !== 'object') {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The content is not a JSON metadata document', {
      reason: 'NOT_JSON',
    });
  }
  return resolveMetadata(doc, (cid, path) => imageUrl(svc, cid, path));
}

export function imageUrl(svc: StorageServices, cid: string, path = ''): string | null {
  const viaGateway = svc.storage.gateways.imageUrl(cid, path);
  if (viaGateway) return viaGateway;
  return path ? null : `${svc.config.storage.publicUrl.replace(/\/+$/, '')}/ipfs/file/${cid}`;
}

export function resolveMetadata(
  value: unknown,
  urlOf: (cid: string, path: string) => string | null,
  depth = 0,
  key?: string,
): unknown {
  if (depth > MAX_DEPTH) return value;
  if (typeof value === 'string') {
    const decoded = decodeDataUri(value);
    if (decoded !== undefined)
      return typeof decoded === 'string' ? decoded : resolveMetadata(decoded, urlOf, depth + 1, key);
    if (
      key &&
      IMAGE_KEYS.has(key) &&
      (value.startsWith('ipfs://') || value.startsWith('/ipfs/') || looksLikeCid(value))
    ) {
      try {
        const ref = parseCidRef(value);
        return urlOf(ref.text, ref.path) ?? value;
      } catch {
        return value;
      }
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => resolveMetadata(v, urlOf, depth + 1, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, resolveMetadata(v, urlOf, depth + 1, k)]),
    );
  }
  return value;
}

/** `data:application/json;base64,…` → the JSON; `data:text/…;base64,…` → the text; others untouched */
function decodeDataUri(value: string): unknown {
  const m = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w-]+=[\w-]+)*)(;base64)?,(.*)$/s.exec(value);
  if (!m) return undefined;
  const mime = (m[1] ?? 'text/plain').toLowerCase();
  const isJson = mime === 'application/json' || mime.endsWith('+json');
  if (!isJson && !mime.startsWith('text/')) return undefined; // images etc. stay usable as data: URLs
  let text: string;
  try {
    text = m[3] ? Buffer.from(m[4] ?? '', 'base64').toString('utf8') : decodeURIComponent(m[4] ?? '');
  } catch {
    return undefined;
  }
  if (!isJson) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
