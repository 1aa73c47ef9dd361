import { hash, verify } from '@node-rs/argon2';

// argon2id with the OWASP minimum (m=19 MiB, t=2, p=1), which are also the library defaults; explicit here
// so that a library upgrade cannot weaken them silently.
const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

/**
 * `users.password_hash` of an account that has no password (docs/accounts.md, "Accounts without a
 * password"): the column stays required, and this is no argon2 hash, so no password ever verifies against it.
 */
export const NO_PASSWORD = '!no-password';

/** the account can sign in with a password (and change it by proving the current one) */
export const hasPassword = (user: { passwordHash: string }) => user.passwordHash !== NO_PASSWORD;

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A real hash of a random password, verified against when the email is unknown, so that a wrong email
 * costs the same time as a wrong password (no user enumeration by timing).
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}-${Date.now()}`);
  return dummyHash;
}
