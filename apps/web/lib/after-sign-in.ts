const HERE = 'http://plenum.invalid';

/**
 * Where signing in leads: the page named by `?next=` when it is a path on this site, else the dashboard.
 * The path is read the way the browser will read it (URL parsing drops tabs, turns `\` into `/`), so
 * nothing that leaves the site (`//host`, `/\host`, `https:`) gets through.
 */
export function afterSignIn(search: string): string {
  const next = new URLSearchParams(search).get('next');
  if (!next?.startsWith('/')) return '/dashboard';
  try {
    const url = new URL(next, HERE);
    return url.origin === HERE ? `${url.pathname}${url.search}${url.hash}` : '/dashboard';
  } catch {
    return '/dashboard';
  }
}
