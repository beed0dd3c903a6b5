import * as z from 'zod';
import type { DocumentStore } from '../../core/ports/index.js';
import { PK_PREFIX, SK } from '../../core/storage/key-prefixes.js';

/**
 * The one item that holds the AWS authorization server's keys: the 32-byte secret they all derive
 * from (oauth-keys.ts), envelope-encrypted under the data key, and beside it in plain the public
 * key that verifies access tokens. Apart from stored-oauth-keys.ts because the MCP function reads
 * only the public half: this file loads neither node:crypto nor the Encryption SDK.
 */
export const OAUTH_KEY_ITEM_KEY = { pk: `${PK_PREFIX.oauthKey}signing`, sk: SK.oauthKey.record } as const;

/** An Ed25519 public key as a JWK, with the `kid` tokens name it by. */
export const PublicOauthJwk = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string().min(1),
  kid: z.string().min(1),
  alg: z.literal('EdDSA'),
  use: z.literal('sig'),
});
export type PublicOauthJwk = z.infer<typeof PublicOauthJwk>;

export const StoredOauthKeyItem = z.object({
  pk: z.literal(OAUTH_KEY_ITEM_KEY.pk),
  sk: z.literal(OAUTH_KEY_ITEM_KEY.sk),
  /** The secret's envelope ciphertext, base64. */
  secret_ciphertext: z.string().min(1),
  public_jwk: PublicOauthJwk,
  created_at: z.string(),
});
export type StoredOauthKeyItem = z.infer<typeof StoredOauthKeyItem>;

/**
 * The public key access tokens are verified with, by one GetItem and no KMS call; undefined while
 * no OAuth function has created the keys yet (then no token can be valid).
 *
 * @example
 * const jwk = await readOauthPublicJwk(store); // { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' }
 */
export async function readOauthPublicJwk(store: DocumentStore): Promise<PublicOauthJwk | undefined> {
  const item = await store.get(OAUTH_KEY_ITEM_KEY);
  return item === undefined ? undefined : StoredOauthKeyItem.parse(item).public_jwk;
}
