import type { passkeyAuthenticationResponse } from '@plenum/validators';
import type { z } from 'zod';
import type { Services } from '../services';
import { completeMfaLogin } from './mfa/login';
import { completeMfaWithPasskey } from './passkeys/login';
import type { SessionClient } from './sessions';

/**
 * `POST /auth/login/mfa` (docs/accounts.md, "Two-factor sign-in" and "Passkeys"): the answer to a sign-in's
 * challenge is a code (mfa/, one prepared statement) or a passkey's assertion (passkeys/); each method
 * keeps its own path, so the codes' stays as fast as it is.
 */
export function finishSecondFactor(
  svc: Services,
  params: {
    mfaToken: string;
    code?: string | undefined;
    recoveryCode?: string | undefined;
    passkey?: z.output<typeof passkeyAuthenticationResponse> | undefined;
    client?: SessionClient;
  },
) {
  const { passkey, ...codes } = params;
  return passkey
    ? completeMfaWithPasskey(svc, { mfaToken: params.mfaToken, response: passkey, client: params.client })
    : completeMfaLogin(svc, codes);
}
