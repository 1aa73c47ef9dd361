'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { dateTime } from '../../lib/files/format';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { useMe } from '../../lib/use-auth';
import { ErrorAlert } from '../alert';
import { AvatarImage } from './avatar-image';
import './account.css';

const isWebLink = (v: string) => /^https?:\/\/[^\s]+$/i.test(v);

/** The profile view of any user (GET /users/{id}/profile); a private one says so. */
export function PublicProfile({ id }: { id: string }) {
  const trpc = useTRPC();
  const { me } = useMe();
  const profile = useQuery({ ...trpc.users.profile.queryOptions({ id }), retry: false });
  if (profile.isPending) return <p aria-live="polite">Loading the profile…</p>;
  if (profile.isError) {
    const err = readable(profile.error);
    if (err.reason === 'PROFILE_PRIVATE')
      return (
        <p className="alert alert-info" role="status" data-testid="profile-private">
          This profile is private.
        </p>
      );
    const invalid = Object.keys(err.fields).includes('id');
    return <ErrorAlert error={invalid ? { message: 'There is no such user.', fields: {} } : err} />;
  }
  const p = profile.data;
  const name = `${p.firstName} ${p.lastName}`;
  const links = Object.entries(p.socialLinks);
  return (
    <article className="stack" data-testid="public-profile">
      <div className="profile-head">
        <AvatarImage userId={p.id} version={p.avatarUrl ?? 'none'} name={name} hasPicture={!!p.avatarUrl} />
        <div>
          <h1>{name}</h1>
          <p className="muted">
            Member since {dateTime(p.joinedAt)}
            {p.isVerified && <span className="badge">verified</span>}
            {p.profileVisibility === 'private' && <span className="badge">private</span>}
          </p>
          {p.email && <p>{p.email}</p>}
        </div>
      </div>
      {p.bio && <p className="bio">{p.bio}</p>}
      {links.length > 0 && (
        <dl className="details">
          {links.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>
                {isWebLink(v) ? (
                  <a href={v} target="_blank" rel="noopener noreferrer nofollow ugc">
                    {v}
                  </a>
                ) : (
                  v
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {me.data?.user.id === p.id && (
        <p>
          <Link href="/account">Edit your profile</Link>
        </p>
      )}
    </article>
  );
}
