'use client';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import type { MyPin } from '../../lib/files/pins';
import { visibilityOf } from '../../lib/files/share';
import { DateTime } from '../ui/date-time';
import { useFileWords } from './use-file-words';

function Row({ term, children, testId }: { term: string; children: ReactNode; testId?: string }) {
  return (
    <div className="grid min-w-0 gap-0.5 sm:grid-cols-[10rem_1fr] sm:gap-3" data-testid={testId}>
      <dt className="text-muted-foreground">{term}</dt>
      <dd className="m-0 min-w-0 break-words">{children}</dd>
    </div>
  );
}

/**
 * A pin's details: name, file name, type, size, status, when it was pinned and verified, its visibility,
 * its full CID and the `meta` given with it. Owners count: added with the visibility work (issue 30).
 */
export function PinDetails({ pin, id }: { pin: MyPin; id: string }) {
  const t = useTranslations('files.details');
  const words = useFileWords();
  const { metadata } = pin;
  const meta = Object.entries(pin.meta ?? {});
  return (
    <dl
      id={id}
      className="m-0 grid min-w-0 gap-2 rounded-md border bg-muted/40 p-3 text-sm"
      data-testid="pin-details"
    >
      <Row term={t('name')}>{pin.name ?? <span className="text-muted-foreground">{t('none')}</span>}</Row>
      <Row term={t('filename')}>
        {metadata.filename ?? <span className="text-muted-foreground">{t('none')}</span>}
      </Row>
      <Row term={t('type')}>{metadata.mimetype ? words.kind(metadata.mimetype) : t('typeUnknown')}</Row>
      <Row term={t('size')} testId="details-size">
        {metadata.size != null ? words.size(metadata.size) : t('sizeUnknown')}
      </Row>
      <Row term={t('status.label')}>{t(`status.${pin.status}`)}</Row>
      <Row term={pin.status === 'pinned' ? t('pinnedAt') : t('requestedAt')}>
        <DateTime value={pin.createdAt} />
      </Row>
      {pin.verifiedAt && (
        <Row term={t('verifiedAt')}>
          <DateTime value={pin.verifiedAt} />
        </Row>
      )}
      {pin.failureReason && <Row term={t('failure')}>{pin.failureReason}</Row>}
      <Row term={t('visibility')}>{t(`visibilityOf.${visibilityOf(pin)}`)}</Row>
      <Row term={t('cid')} testId="details-cid">
        <code className="break-all" translate="no">
          {pin.cid}
        </code>
      </Row>
      {meta.length > 0 && (
        <Row term={t('meta')}>
          <ul className="m-0 grid list-none gap-0.5 p-0">
            {meta.map(([k, v]) => (
              <li key={k} className="break-words">
                <span className="font-medium">{k}</span>: {v}
              </li>
            ))}
          </ul>
        </Row>
      )}
    </dl>
  );
}
