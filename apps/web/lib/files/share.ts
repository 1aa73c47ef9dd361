'use client';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useApiUrl } from '../api-url';
import { useTRPCClient } from '../trpc';
import { fileUrl, type MyPin } from './pins';

/**
 * Links of the files page (docs/storage.md, "In the web app"). A public file's link is this API's file
 * path. A non-public file (`private` or `dao`) is read by others, and by the browser itself (previews,
 * "Open": the page's credentials are a Bearer token an <img> or a new tab does not send), only through a
 * signed expiring link: tRPC `storage.links.create` (REST `POST /ipfs/links`) → `{ url, expiresAt }`.
 */
export type Visibility = MyPin['visibility'];

/** a pin's visibility (docs/storage.md, "Private and members-only files") */
export const visibilityOf = (pin: Pick<MyPin, 'visibility'>): Visibility => pin.visibility;

/** how long a share link made from the page stays valid: one day (the API allows up to 7) */
export const SHARE_LINK_SECONDS = 24 * 60 * 60;
/** how long the page's own reading link lives (previews, "Open"); read again well before it ends */
export const READ_LINK_SECONDS = 60 * 60;

export interface SignedLink {
  url: string;
  expiresAt: string;
}

export type CreateLink = (input: { cid: string; expiresIn: number }) => Promise<SignedLink>;

/** The signed links of non-public files, through the typed tRPC procedure. */
export function useCreateLink(): CreateLink {
  const client = useTRPCClient();
  return useCallback((input) => client.storage.links.create.mutate(input), [client]);
}

/** The link to give others: the file path for a public file; a fresh one-day signed link otherwise. */
export async function shareLinkOf(
  pin: Pick<MyPin, 'cid' | 'visibility'>,
  ctx: { apiUrl: string; create: CreateLink },
): Promise<{ url: string; expiresAt: string | null }> {
  if (visibilityOf(pin) === 'public') return { url: fileUrl(ctx.apiUrl, pin.cid), expiresAt: null };
  return ctx.create({ cid: pin.cid, expiresIn: SHARE_LINK_SECONDS });
}

/**
 * The URL the page itself reads a file at: the file path when public, else a signed link made when first
 * needed (`enabled`) and kept for most of its hour. `url` is null while it is being made.
 */
export function useReadUrl(pin: Pick<MyPin, 'cid' | 'visibility'>, enabled: boolean) {
  const apiUrl = useApiUrl();
  const create = useCreateLink();
  const open = visibilityOf(pin) === 'public';
  const link = useQuery({
    queryKey: ['files', 'read-link', apiUrl, pin.cid],
    queryFn: () => create({ cid: pin.cid, expiresIn: READ_LINK_SECONDS }),
    enabled: enabled && !open,
    staleTime: (READ_LINK_SECONDS / 2) * 1000,
    gcTime: (READ_LINK_SECONDS / 2) * 1000,
  });
  return { url: open ? fileUrl(apiUrl, pin.cid) : (link.data?.url ?? null), link };
}
