'use client';
import { useSyncExternalStore } from 'react';

/**
 * The session token from /auth/login or /auth/siwe. The API is cross-origin, so the web app sends it as
 * `Authorization: Bearer` rather than relying on the API's cookie; localStorage keeps it across reloads
 * and the `storage` event keeps several tabs in step.
 */
const KEY = 'plenum.session';
const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function getSessionToken(): string | null {
  return typeof window === 'undefined' ? null : read();
}

export function setSessionToken(token: string | null) {
  try {
    if (token) window.localStorage.setItem(KEY, token);
    else window.localStorage.removeItem(KEY);
  } catch {
    // storage disabled: the session lasts for this page only
  }
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** null on the server and during hydration, so server and first client render agree */
export function useSessionToken(): string | null {
  return useSyncExternalStore(subscribe, read, () => null);
}
