'use client';
import type { ReactNode } from 'react';
import { Button } from './button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from './dropdown-menu';

export interface RadioMenuOption {
  value: string;
  label: ReactNode;
  /** the option's own language, for screen readers ("Deutsch" read in German) */
  lang?: string;
}

/** An icon button opening a one-of-many choice (theme, language): the checked option is the current value. */
export function RadioMenu({
  icon,
  label,
  value,
  options,
  onChange,
}: {
  icon: ReactNode;
  /** the button's accessible name, naming the current value ("Theme: dark") */
  label: string;
  value: string;
  options: readonly RadioMenuOption[];
  onChange: (value: string) => void;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={label}>
          {icon}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="min-w-36">
        <DropdownMenuRadioGroup value={value} onValueChange={onChange}>
          {options.map((o) => (
            <DropdownMenuRadioItem key={o.value} value={o.value} lang={o.lang}>
              {o.label}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
