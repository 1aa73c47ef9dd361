'use client';
import BoringAvatar from 'boring-avatars';
import { Check, Copy } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { toast } from 'sonner';
import { copyText } from '../../lib/clipboard';
import { cn } from '../../lib/cn';
import { useAddressProfile } from '../../lib/profiles/use-address-profile';
import { Button } from './button';
import { Tooltip } from './tooltip';

const PALETTE = ['#3b4fd8', '#8c9cff', '#1f8a4c', '#f0b849', '#c0362c'];

/** 0x1234…abcd: the first 4 and last 4 hex digits. */
export function shortAddress(address: string): string {
  return /^0x[0-9a-fA-F]{40}$/.test(address) ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** A 20 px identicon for an address, named for screen readers. */
export function Identicon({
  address,
  size = 20,
  className,
}: {
  address: string;
  size?: number;
  className?: string;
}) {
  const t = useTranslations('common.address');
  return (
    <span
      role="img"
      aria-label={t('identicon', { address: shortAddress(address) })}
      className={cn('inline-flex shrink-0', className)}
    >
      <BoringAvatar
        name={address.toLowerCase()}
        variant="beam"
        size={size}
        colors={PALETTE}
        aria-hidden
        focusable="false"
      />
    </span>
  );
}

/**
 * A wallet address as people read it: the name of the public profile behind it (looked up in batches,
 * docs/users.md, "Names for addresses") linking to that profile, followed by 0x1234…abcd, or only
 * 0x1234…abcd when there is none or the lookup fails; an identicon; the full address in `title`; and a
 * copy button (tooltip, toast) that copies the address. The short address stays visible beside a name:
 * names are chosen by their owners and two people may pick the same one. A caller that already knows the
 * name passes `name` (and `href`); `name={null}` skips the lookup. data-address carries the full address
 * for tests and scripts, data-profile the profile's id when a name is shown.
 */
export function Address({
  address,
  name,
  href,
  copy = true,
  className,
}: {
  address: string;
  name?: string | null;
  href?: string;
  copy?: boolean;
  className?: string;
}) {
  const t = useTranslations('common.address');
  const [copied, setCopied] = useState(false);
  // name={null} means no name and no profile link, even when another element cached the lookup
  const looked = useAddressProfile(address, name === undefined);
  const profile = name === undefined ? looked : null;
  const shownName = name?.trim() || profile?.displayName.trim() || null;
  const link = href ?? (profile && !name ? `/users/${profile.userId}` : undefined);
  const short = (
    <span
      className={cn('font-mono text-[0.9em]', shownName ? 'shrink-0 text-muted-foreground' : 'truncate')}
      title={address}
      translate="no"
    >
      {shortAddress(address)}
    </span>
  );
  const label = shownName ? (
    <span className="truncate" title={address} data-testid="address-name">
      {shownName}
    </span>
  ) : (
    short
  );
  return (
    <span
      data-slot="address"
      data-address={address}
      data-profile={profile && !name ? profile.userId : undefined}
      className={cn(
        'inline-flex max-w-full min-w-0 flex-wrap items-center gap-x-1.5 align-middle',
        className,
      )}
    >
      {/* where name and short address do not fit on one line (375 px), the short address wraps below
          rather than the name being cut to its first letter */}
      <span className="inline-flex max-w-full min-w-0 items-center gap-1.5">
        <Identicon address={address} />
        {link ? (
          <Link href={link} className="min-w-0 truncate">
            {label}
          </Link>
        ) : (
          label
        )}
      </span>
      {/* the copy button stays beside the short address it copies */}
      <span className="inline-flex shrink-0 items-center gap-1.5">
        {shownName && short}
        {copy && (
          <Tooltip content={copied ? t('copied') : t('copy')}>
            <Button
              variant="ghost"
              size="icon-sm"
              className="size-7 text-muted-foreground"
              aria-label={t('copyNamed', { address: shortAddress(address) })}
              onClick={async () => {
                await copyText(address);
                setCopied(true);
                toast.success(t('copied'), { description: address });
                setTimeout(() => setCopied(false), 2_000);
              }}
            >
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
            </Button>
          </Tooltip>
        )}
      </span>
    </span>
  );
}
