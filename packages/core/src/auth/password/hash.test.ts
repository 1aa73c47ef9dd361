import { describe, expect, it } from 'vitest';
import { hashPassword, hasPassword, NO_PASSWORD, verifyPassword } from './hash';

describe('an account without a password', () => {
  it('stores the marker, which no password verifies against', async () => {
    expect(hasPassword({ passwordHash: NO_PASSWORD })).toBe(false);
    for (const guess of ['', NO_PASSWORD, 'no-password', 'Correct-Horse-9'])
      expect(await verifyPassword(NO_PASSWORD, guess)).toBe(false);
  });

  it('is told apart from an account with one', async () => {
    const passwordHash = await hashPassword('Correct-Horse-9');
    expect(hasPassword({ passwordHash })).toBe(true);
    expect(await verifyPassword(passwordHash, 'Correct-Horse-9')).toBe(true);
  });
});
