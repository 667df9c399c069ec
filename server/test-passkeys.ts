/**
 * A software authenticator for the server's tests: it answers WebAuthn ceremonies as a platform
 * authenticator would (ES256 key, "none" attestation, a signature counter), so the passkey routes
 * run against real responses that SimpleWebAuthn verifies. The browser tests use Chromium's own
 * virtual authenticator instead.
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();
const u32 = (n: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(n);
  return bytes;
};

/** Authenticator data flags: user present, user verified, attested credential data. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/** One passkey of `rpId`, used from `origin`. */
export function softPasskey(origin: string, rpId = new URL(origin).hostname) {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = randomBytes(16);
  const id = b64url(credentialId);
  let counter = 0;
  const clientData = (type: string, challenge: string, from = origin) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: from, crossOrigin: false }));

  return {
    id,
    /** The response to registration options (`options.challenge`). */
    register(options: Record<string, unknown>, { from = origin } = {}) {
      const cose = new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([UP | UV | AT]),
        u32(counter),
        Buffer.alloc(16),
        idLength,
        credentialId,
        isoCBOR.encode(cose),
      ]);
      const attestation = new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]);
      return {
        id,
        rawId: id,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', String(options.challenge), from)),
          attestationObject: b64url(isoCBOR.encode(attestation)),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },
    /** The response to authentication options; `counter` overrides the next counter. */
    answer(
      options: Record<string, unknown>,
      { userVerified = true, counter: next = counter + 1 } = {},
    ) {
      counter = next;
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([UP | (userVerified ? UV : 0)]),
        u32(counter),
      ]);
      const data = clientData('webauthn.get', String(options.challenge));
      const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), privateKey);
      return {
        id,
        rawId: id,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(data),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
        },
        clientExtensionResults: {},
      };
    },
  };
}
