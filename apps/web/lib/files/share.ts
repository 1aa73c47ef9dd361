import { fileUrl, type MyPin } from './pins';
import { restJson } from './rest';

/**
 * Share links of the files page (docs/storage.md, "In the web app"). A public file's link is its gateway
 * link. A non-public file (`private` or `dao`) is shared only through a signed expiring link
 * of the API, `POST /ipfs/links { cid, expiresIn } → { url, expiresAt }`.
 */
export type Visibility = 'public' | 'private' | 'dao';

/** a pin's visibility (docs/storage.md, "Private and members-only files") */
export const visibilityOf = (pin: MyPin): Visibility => pin.visibility;

/** how long a signed link made from the page stays valid: one day (the API allows up to 7) */
export const SHARE_LINK_SECONDS = 24 * 60 * 60;

export interface SignedLink {
  url: string;
  expiresAt: string;
}

/** Seam for the signed links of non-public files: `POST /ipfs/links` with the caller's token. */
export function createSignedLink(
  apiUrl: string,
  token: string | null,
  params: { cid: string; expiresIn: number },
): Promise<SignedLink> {
  return restJson<SignedLink>(`${apiUrl}/ipfs/links`, token, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
}

/**
 * The link to give others: for a public file this server's gateway path (`/ipfs/file/{cid}`, which
 * serves it whether or not a public gateway finds it); a fresh signed link otherwise.
 */
export async function shareLinkOf(
  pin: MyPin,
  ctx: { apiUrl: string; token: string | null },
): Promise<{ url: string; expiresAt: string | null }> {
  if (visibilityOf(pin) === 'public') return { url: fileUrl(ctx.apiUrl, pin.cid), expiresAt: null };
  return createSignedLink(ctx.apiUrl, ctx.token, { cid: pin.cid, expiresIn: SHARE_LINK_SECONDS });
}
