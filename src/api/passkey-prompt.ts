/**
 * The browser's side of a passkey ceremony (docs/api.md "Passkeys"): the options the server
 * opened the ceremony with go to the browser's prompt (WebAuthn, through SimpleWebAuthn), and
 * its answer goes back to the server with the ceremony. A prompt that ends without an answer
 * rejects with an ApiError of status PASSKEY_ERROR whose code says why, so screens word it as
 * they word the server's refusals.
 */
import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { ApiError } from './errors';

/** WebAuthn's JSON as the contract carries it (an object the server reads). */
type WebAuthnJson = Record<string, unknown>;

/**
 * Why the prompt ended: NotAllowedError is the browser's word for "cancelled or timed out" (it
 * does not tell which, so that a page cannot learn whether a passkey exists); InvalidStateError,
 * when adding one, means the authenticator already holds a passkey of this account.
 */
function promptFailure(error: unknown): ApiError {
  const name = error instanceof Error ? error.name : '';
  const code =
    name === 'NotAllowedError' || name === 'AbortError'
      ? 'PASSKEY_CANCELLED'
      : name === 'InvalidStateError'
        ? 'PASSKEY_EXISTS'
        : 'PASSKEY_FAILED';
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError({ status: 'PASSKEY_ERROR', code, message, cause: error });
}

/** The browser's new passkey for a registration ceremony's `options`. */
export async function createPasskeyCredential(options: WebAuthnJson): Promise<WebAuthnJson> {
  try {
    const optionsJSON = options as unknown as PublicKeyCredentialCreationOptionsJSON;
    return { ...(await startRegistration({ optionsJSON })) };
  } catch (error) {
    throw promptFailure(error);
  }
}

/** A passkey's signed answer to a sign-in ceremony's (or a second step's) `options`. */
export async function passkeyAssertion(options: WebAuthnJson): Promise<WebAuthnJson> {
  try {
    const optionsJSON = options as unknown as PublicKeyCredentialRequestOptionsJSON;
    return { ...(await startAuthentication({ optionsJSON })) };
  } catch (error) {
    throw promptFailure(error);
  }
}
