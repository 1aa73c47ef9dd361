import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

/** A placeholder block while data loads; decorative, so give the loading state a text for screen readers. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="skeleton"
      aria-hidden
      className={cn('animate-pulse rounded-md bg-muted', className)}
      {...props}
    />
  );
}
