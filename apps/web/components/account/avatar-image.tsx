'use client';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useApiUrl } from '../../lib/api-url';
import { useSessionToken } from '../../lib/session';

/**
 * A user's picture. It is fetched with the session's Bearer token (an <img> would send none, and the
 * owner or an admin may see a private profile's picture), then shown from a blob: URL.
 */
export function AvatarImage({
  userId,
  version,
  name,
  size = 96,
  hasPicture = true,
}: {
  userId: string;
  /** changes when the picture does (e.g. the user's updatedAt), so a new one is fetched */
  version: string;
  name: string;
  size?: number;
  /** false when the record says there is none: nothing to fetch */
  hasPicture?: boolean;
}) {
  const apiUrl = useApiUrl();
  const token = useSessionToken();
  const picture = useQuery({
    queryKey: ['account', 'avatar', userId, version, token],
    enabled: hasPicture,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => {
      const res = await fetch(`${apiUrl}/users/${encodeURIComponent(userId)}/avatar`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      if (!res.ok) return null;
      return res.blob();
    },
  });
  const url = useMemo(() => (picture.data ? URL.createObjectURL(picture.data) : null), [picture.data]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  const initials = name
    .split(/\s+/)
    .map((w) => w[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return url ? (
    <img
      className="size-24 shrink-0 rounded-full border bg-card object-cover"
      src={url}
      alt={`Avatar of ${name}`}
      width={size}
      height={size}
      data-testid="avatar"
    />
  ) : (
    <span
      className="inline-flex shrink-0 items-center justify-center rounded-full border bg-card text-2xl font-bold text-muted-foreground"
      style={{ width: size, height: size }}
      aria-hidden="true"
    >
      {initials}
    </span>
  );
}
