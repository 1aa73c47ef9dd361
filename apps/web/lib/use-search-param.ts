'use client';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';

/**
 * One query parameter of the page's URL as state: a view that can be linked to (the Votes tab filtered
 * by a choice) keeps its settings in the address. Setting replaces the history entry (no new Back step)
 * and keeps the scroll position; null removes the parameter. Updates start from the address as it is
 * now, so two settings made at once both stay.
 */
export function useSearchParam(name: string): [string | null, (value: string | null) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const set = (value: string | null) => {
    const next = new URLSearchParams(window.location.search);
    if (value === null || value === '') next.delete(name);
    else next.set(name, value);
    const query = next.toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };
  return [params.get(name), set];
}
