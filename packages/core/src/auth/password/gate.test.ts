import { describe, expect, it } from 'vitest';
import { checkingPasswords, PasswordGate } from './gate';

const svc = {
  passwordChecks: new PasswordGate({ concurrency: 4, queue: 64, perClient: 2, perClientQueue: 3 }),
};
const passwordChecksInFlight = () => svc.passwordChecks.inFlight();

/** a check that runs until released, recording that it started */
function held(started: string[], name: string) {
  let release!: () => void;
  const done = new Promise<boolean>((resolve) => {
    release = () => resolve(true);
  });
  const check = () => {
    started.push(name);
    return done;
  };
  return { release, check };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('password check gate', () => {
  it('gives one client its share, lines up the rest, refuses beyond its line, and lets another client in', async () => {
    const started: string[] = [];
    const a = Array.from({ length: 5 }, (_, i) => held(started, `a${i}`));
    const runs = a.map((h) => checkingPasswords(svc, '198.51.100.1', h.check));
    // a sixth from the same client: 2 running + 3 waiting is its all
    await expect(checkingPasswords(svc, '198.51.100.1', async () => true)).rejects.toMatchObject({
      options: { reason: 'PASSWORD_CHECKS_BUSY' },
    });
    await tick();
    expect(started).toEqual(['a0', 'a1']);
    expect(passwordChecksInFlight()).toEqual({ running: 2, waiting: 3 });

    // another client runs at once, in front of the waiting flood
    expect(await checkingPasswords(svc, '192.0.2.9', async () => 'bystander')).toBe('bystander');

    // a slot freed by the client goes to its next waiter, one at a time
    a[0]!.release();
    await tick();
    expect(started).toEqual(['a0', 'a1', 'a2']);
    for (const h of a) h.release();
    await Promise.all(runs);
    await tick();
    expect(started).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
    expect(passwordChecksInFlight()).toEqual({ running: 0, waiting: 0 });
  });

  it('frees its slot when a check fails', async () => {
    await expect(
      checkingPasswords(svc, '198.51.100.2', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(passwordChecksInFlight()).toEqual({ running: 0, waiting: 0 });
  });
});
