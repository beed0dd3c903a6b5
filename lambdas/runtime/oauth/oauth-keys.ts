import { createHash, createPrivateKey, createPublicKey, hkdfSync, type JsonWebKey } from 'node:crypto';

/** The authorization server's keys, all derived from one 32-byte secret (`oauth.key` in the data dir). */
export interface OauthKeys {
  /** The private signing key of access tokens (Ed25519), as oidc-provider's `jwks` takes it. */
  signingJwk: JsonWebKey & { kid: string; alg: string; use: string };
  /** Its public half: what the bearer check verifies with. */
  publicJwk: JsonWebKey & { kid: string; alg: string; use: string };
  /** Keys that sign the sign-in cookies. */
  cookieKeys: string[];
  /** Keys the pages' CSRF tokens are made with. */
  csrfKey: Buffer;
}

// PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410): the seed is the whole private key.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function derived(secret: Uint8Array, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `meridian oauth ${purpose}`, 32));
}

/**
 * Derives the authorization server's keys from a secret kept in a private file (the same
 * load-or-create as the master key), so tokens and sign-in cookies survive a restart and nothing
 * but 32 bytes has to be stored. Ed25519 because its private key is exactly a 32-byte seed.
 *
 * @example
 * const keys = oauthKeysFrom(await loadOrCreateKeyFile(join(dataDir, 'oauth.key')));
 */
export function oauthKeysFrom(secret: Uint8Array): OauthKeys {
  const seed = derived(secret, 'signing');
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicJwkRaw = createPublicKey(privateKey).export({ format: 'jwk' });
  const kid = createHash('sha256').update(String(publicJwkRaw.x)).digest('base64url').slice(0, 16);
  const meta = { kid, alg: 'EdDSA', use: 'sig' };
  return {
    signingJwk: { ...privateKey.export({ format: 'jwk' }), ...meta },
    publicJwk: { ...publicJwkRaw, ...meta },
    cookieKeys: [derived(secret, 'cookies').toString('base64url')],
    csrfKey: derived(secret, 'csrf'),
  };
}
