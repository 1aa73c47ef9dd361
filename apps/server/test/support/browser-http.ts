/**
 * A browser's navigation over plain HTTP, for flows that cross origins by redirects (OpenID sign-in):
 * it follows 3xx answers and carries cookies as a browser does on one host (every origin here is
 * 127.0.0.1, and cookies do not tell ports apart). It stops at the first URL outside `follow`.
 */
export class HttpBrowser {
  readonly cookies = new Map<string, string>();
  constructor(readonly follow: string[]) {}

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  store(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const gone = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (gone || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** one request; cookies sent and stored */
  async get(url: string, headers: Record<string, string> = {}) {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: this.cookieHeader(), ...headers },
    });
    this.store(res);
    await res.arrayBuffer();
    return res;
  }

  /** navigates from `url` through redirects; answers the visited URLs and where it stopped */
  async navigate(url: string, headers: Record<string, string> = {}) {
    const visited: string[] = [];
    let current = url;
    for (let i = 0; i < 20; i++) {
      visited.push(current);
      const res = await this.get(current, headers);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location)
        return { visited, stoppedAt: current, status: res.status };
      const next = new URL(location, current).href;
      if (!this.follow.some((o) => next.startsWith(o)))
        return { visited, stoppedAt: next, status: res.status };
      current = next;
    }
    throw new Error(`too many redirects from ${url}`);
  }
}
