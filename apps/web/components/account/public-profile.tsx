'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { readable } from '../../lib/files/readable';
import { isTransient } from '../../lib/query-client';
import { useTRPC } from '../../lib/trpc';
import { useMe } from '../../lib/use-auth';
import { useViewerReads } from '../../lib/use-viewer-reads';
import { Notice } from '../ui/alert';
import { DateTime } from '../ui/date-time';
import { FormError } from '../ui/form';
import { QueryState } from '../ui/query-state';
import { AvatarImage } from './avatar-image';

const isWebLink = (v: string) => /^https?:\/\/[^\s]+$/i.test(v);

/** The profile view of any user (GET /users/{id}/profile); a private one says so. */
export function PublicProfile({ id }: { id: string }) {
  const t = useTranslations('account.profilePage');
  const trpc = useTRPC();
  const { me } = useMe();
  const profile = useQuery({ ...trpc.users.profile.queryOptions({ id }), retry: false });
  // the owner sees their email and a private profile: read as the viewer once hydrated
  useViewerReads([trpc.users.profile.queryKey({ id })]);
  // an answer (private, no such user) is final; an outage gets "Try again" and recovers by itself
  if (profile.isError && !isTransient(profile.error)) {
    const err = readable(profile.error);
    if (err.reason === 'PROFILE_PRIVATE') return <Notice testId="profile-private">{t('private')}</Notice>;
    const invalid = Object.keys(err.fields).includes('id');
    return <FormError error={invalid ? { message: t('noSuchUser'), fields: {} } : err} />;
  }
  if (profile.data === undefined) return <QueryState query={profile}>{() => null}</QueryState>;
  const p = profile.data;
  const name = `${p.firstName} ${p.lastName}`;
  const links = Object.entries(p.socialLinks);
  return (
    <article className="stack" data-testid="public-profile">
      <div className="flex flex-wrap items-center gap-4">
        <AvatarImage userId={p.id} version={p.avatarUrl ?? 'none'} name={name} hasPicture={!!p.avatarUrl} />
        <div>
          <h1>{name}</h1>
          <p className="muted">
            {t('memberSince')} <DateTime value={p.joinedAt} />
            {p.isVerified && <span className="badge">{t('verified')}</span>}
            {p.profileVisibility === 'private' && <span className="badge">{t('privateBadge')}</span>}
          </p>
          {p.email && <p>{p.email}</p>}
        </div>
      </div>
      {p.bio && <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{p.bio}</p>}
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
          <Link href="/account">{t('edit')}</Link>
        </p>
      )}
    </article>
  );
}
