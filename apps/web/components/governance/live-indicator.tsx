import { useTranslations } from 'next-intl';
import { cn } from '../../lib/cn';

/** Whether figures arrive live over the WebSocket or by polling (signed out, or reconnecting). */
export function LiveIndicator({ live, className }: { live: boolean; className?: string }) {
  const t = useTranslations('governance.live');
  return (
    <span
      className={cn(
        'text-xs',
        live ? 'text-success before:content-["●_"]' : 'text-muted-foreground',
        className,
      )}
      data-testid="live-indicator"
      data-live={live}
    >
      {live ? t('on') : t('polling')}
    </span>
  );
}
