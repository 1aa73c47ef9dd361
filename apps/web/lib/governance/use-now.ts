'use client';
import { useSyncExternalStore } from 'react';

/** One shared one-second ticker for every countdown on the page. */
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;
let now = 0;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, 1_000);
  }
  return () => {
    listeners.delete(listener);
    if (!listeners.size && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The current time in ms, refreshed every second; 0 on the server and while hydrating. */
export function useNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => {
      now ||= Date.now(); // a stable snapshot until the next tick
      return now;
    },
    () => 0,
  );
}
