import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from '@simplewebauthn/browser';

/**
 * The browser's prompts for the options the API made with @simplewebauthn/server: its zod schemas type
 * the enums as strings, the browser library wants its own literal types.
 */
export const createPasskey = (options: { challenge: string }) =>
  startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
export const askForPasskey = (options: { challenge: string }) =>
  startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });

/**
 * What went wrong in the browser's passkey prompt, by the words the page has for it (messages, key
 * `auth.passkey.browser.*`), or null when the failure is not the browser's (the API's: show its error).
 */
export type PasskeyBrowserProblem = 'cancelled' | 'alreadyRegistered' | 'unsupported' | 'failed';

export function passkeyBrowserProblem(err: unknown): PasskeyBrowserProblem | null {
  if (err instanceof WebAuthnError) {
    if (err.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'alreadyRegistered';
    if (err.code === 'ERROR_CEREMONY_ABORTED' || err.name === 'NotAllowedError') return 'cancelled';
    return 'failed';
  }
  if (err instanceof Error) {
    if (err.name === 'NotAllowedError' || err.name === 'AbortError') return 'cancelled';
    if (err.name === 'InvalidStateError') return 'alreadyRegistered';
    if (/does not support WebAuthn/i.test(err.message)) return 'unsupported';
    if (err.name === 'SecurityError' || err.name === 'NotSupportedError') return 'failed';
  }
  return null;
}
