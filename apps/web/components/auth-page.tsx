import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

/** The frame of the sign-in, register and email-link pages: a heading, a lead, the form in a card. */
export function AuthPage({
  title,
  lead,
  children,
  footer,
  wide = false,
}: {
  title: ReactNode;
  lead?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}) {
  return (
    <div className={cn('mx-auto grid w-full gap-6 py-2 sm:py-6', wide ? 'max-w-4xl' : 'max-w-md')}>
      <div className="grid gap-2">
        <h1 className="m-0 text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
        {lead && <p className="text-muted-foreground">{lead}</p>}
      </div>
      {children}
      {footer && <div className="grid gap-1 text-sm text-muted-foreground">{footer}</div>}
    </div>
  );
}

/** A bordered panel for one way of doing something (a form, a wallet button). */
export function AuthPanel({
  children,
  className,
  ...rest
}: { children: ReactNode; className?: string } & Record<
  `aria-${string}` | `data-${string}`,
  string | undefined
>) {
  return (
    <section
      className={cn('grid min-w-0 content-start gap-4 rounded-xl border bg-card p-5 shadow-sm', className)}
      {...rest}
    >
      {children}
    </section>
  );
}
