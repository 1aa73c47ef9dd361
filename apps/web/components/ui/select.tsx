import { ChevronDown } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';
import { inputClass } from './input';

/**
 * A native <select> (keyboard, mobile pickers and form submission for free) with the inputs' look. The
 * arrow is placed in the wrapper: a select narrower than the row (`w-auto`) says so with
 * `wrapperClassName="w-auto"` too, so that the arrow stays inside the select's box.
 */
export function Select({
  className,
  wrapperClassName,
  children,
  ...props
}: ComponentProps<'select'> & { wrapperClassName?: string }) {
  return (
    <div className={cn('relative w-full min-w-0', wrapperClassName)}>
      <select data-slot="select" className={cn(inputClass, 'appearance-none pr-9', className)} {...props}>
        {children}
      </select>
      <ChevronDown
        aria-hidden
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground"
      />
    </div>
  );
}
