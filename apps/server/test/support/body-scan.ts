import { hashToken } from '@plenum/core';
import { PASSWORD } from './factories';
import { type ApiClient, apiClient, type RecordedExchange } from './http';

interface Identity {
  email: string;
  role: string;
}

/**
 * Paths exempt from the email rule only (secrets are still scanned): the development outbox exists to show
 * developers every mail, and verify-email answers the holder of the mailed token with that inbox's address
 * (docs/users.md, "Email verification"), which that holder has just proven to control.
 */
const EMAIL_EXEMPT = [/^\/dev\/outbox\b/, /^\/users\/verify-email\b/];
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const SECRET_KEYS = /"(password_?hash|passwordHash|token_?hash|tokenHash|avatar_?file|avatarFile)"/i;

/**
 * Records every exchange of a test client and reports leaks: a password hash (field or argon2 string), a
 * password sent in any request, the hash of any token handed out, or, in a response to a non-admin, an
 * email that is neither the requester's own nor one the request itself carried.
 */
export function createBodyScanner() {
  const exchanges: RecordedExchange[] = [];
  const identities = new Map<string, Identity>();
  const passwords = new Set<string>([PASSWORD]);

  function learn(x: RecordedExchange) {
    const req = x.requestBody as Record<string, unknown> | undefined;
    if (req && typeof req.password === 'string' && req.password.length >= 6) passwords.add(req.password);
    try {
      const body = JSON.parse(x.text) as { token?: unknown; user?: { email?: string; role?: string } };
      if (typeof body?.token === 'string' && body.user?.email)
        identities.set(body.token, { email: body.user.email.toLowerCase(), role: body.user.role ?? 'user' });
    } catch {
      // not JSON
    }
  }

  /** tokens obtained outside the recorded client (e.g. minted in the database) */
  function knowToken(token: string, identity: Identity) {
    identities.set(token, { ...identity, email: identity.email.toLowerCase() });
  }

  function violations(): string[] {
    const found: string[] = [];
    const tokenHashes = [...identities.keys()].map(hashToken);
    for (const x of exchanges) {
      const where = `${x.method} ${x.path} → ${x.status}`;
      const text = x.text;
      if (SECRET_KEYS.test(text)) found.push(`${where}: a secret field name`);
      if (text.includes('$argon2')) found.push(`${where}: an argon2 hash`);
      for (const pw of passwords) if (text.includes(pw)) found.push(`${where}: a password`);
      for (const h of tokenHashes) if (text.includes(h)) found.push(`${where}: a token hash`);
      const who = x.token ? identities.get(x.token) : undefined;
      if (who?.role === 'admin' || EMAIL_EXEMPT.some((r) => r.test(x.path))) continue;
      const allowed = new Set<string>();
      if (who) allowed.add(who.email);
      for (const m of JSON.stringify(x.requestBody ?? '').matchAll(EMAIL)) allowed.add(m[0].toLowerCase());
      for (const m of text.matchAll(EMAIL)) {
        if (!allowed.has(m[0].toLowerCase())) found.push(`${where}: another user's email ${m[0]}`);
      }
    }
    return found;
  }

  return {
    exchanges,
    knowToken,
    violations,
    record(x: RecordedExchange) {
      exchanges.push(x);
      learn(x);
    },
  };
}

export type BodyScanner = ReturnType<typeof createBodyScanner>;

/** A test client whose every response is scanned when the file's last test calls `scanner.violations()`. */
export function scannedClient(baseUrl: string): { api: ApiClient; scanner: BodyScanner } {
  const scanner = createBodyScanner();
  return { api: apiClient(baseUrl, { record: (x) => scanner.record(x) }), scanner };
}
