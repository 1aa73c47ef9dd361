import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn';

const alertVariants = cva(
  'relative grid w-full grid-cols-[0_1fr] items-start gap-y-0.5 rounded-lg border px-4 py-3 text-sm has-[>svg]:grid-cols-[1.25rem_1fr] has-[>svg]:gap-x-3 [&>svg]:size-5 [&>svg]:translate-y-0.5 [&>svg]:text-current',
  {
    variants: {
      variant: {
        default: 'bg-card text-card-foreground',
        info: 'border-primary/40 bg-primary/5 text-foreground [&>svg]:text-primary',
        success: 'border-success/50 bg-success/5 text-foreground [&>svg]:text-success',
        warning: 'border-warning/60 bg-warning/5 text-foreground [&>svg]:text-warning',
        destructive:
          'border-destructive/60 bg-destructive/5 text-destructive [&>svg]:text-destructive *:data-[slot=alert-description]:text-destructive',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

/**
 * A message box. It is not a live region by itself: pass role="alert" for errors that appear after an
 * action, role="status" for confirmations.
 */
export function Alert({
  className,
  variant,
  ...props
}: ComponentProps<'div'> & VariantProps<typeof alertVariants>) {
  return <div data-slot="alert" className={cn(alertVariants({ variant }), className)} {...props} />;
}

export function AlertTitle({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="alert-title" className={cn('col-start-2 font-medium', className)} {...props} />;
}

export function AlertDescription({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="alert-description"
      className={cn('col-start-2 grid gap-1 text-sm [&_p]:leading-relaxed', className)}
      {...props}
    />
  );
}

/** A confirmation or a hint that appears after an action, read out politely (role="status"). */
export function Notice({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Alert variant="info" role="status" data-testid={testId}>
      <AlertDescription>
        <p>{children}</p>
      </AlertDescription>
    </Alert>
  );
}
