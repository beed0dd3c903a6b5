import { randomBytes } from 'node:crypto';
import type { Clock, DocumentStore, EnvelopeEncryption } from '../../core/ports/index.js';
import { ConditionFailedError } from '../../core/ports/index.js';
import { type OauthKeys, oauthKeysFrom } from './oauth-keys.js';
import { OAUTH_KEY_ITEM_KEY, PublicOauthJwk, StoredOauthKeyItem } from './stored-oauth-key-item.js';

/** Authenticated with the ciphertext: a blob of another kind of secret does not decrypt as this one. */
const SECRET_CONTEXT = { purpose: 'oauth-signing-secret' } as const;

export interface StoredOauthKeysDeps {
  store: DocumentStore;
  encryption: EnvelopeEncryption;
  clock: Clock;
}

async function keysOf(deps: StoredOauthKeysDeps, item: unknown): Promise<OauthKeys> {
  const stored = StoredOauthKeyItem.parse(item);
  const secret = await deps.encryption.decrypt(
    Buffer.from(stored.secret_ciphertext, 'base64'),
    SECRET_CONTEXT,
  );
  return oauthKeysFrom(secret);
}

/**
 * The AWS authorization server's keys: what `oauth.key` is to the embedded runtime, kept in the
 * table instead (a Lambda has no disk that lasts). The first function that needs them creates the
 * secret, encrypts it under the data key and writes it with its public key in one conditional put;
 * when two create at once, the loser reads and uses the winner's, so every token is signed by one
 * key. Reading costs one GetItem and one KMS Decrypt.
 *
 * @example
 * const keys = await loadOrCreateStoredOauthKeys({ store, encryption, clock });
 */
export async function loadOrCreateStoredOauthKeys(deps: StoredOauthKeysDeps): Promise<OauthKeys> {
  const existing = await deps.store.get(OAUTH_KEY_ITEM_KEY, { consistent: true });
  if (existing) return keysOf(deps, existing);
  const secret = randomBytes(32);
  const keys = oauthKeysFrom(secret);
  const ciphertext = await deps.encryption.encrypt(secret, SECRET_CONTEXT);
  const item: StoredOauthKeyItem = {
    ...OAUTH_KEY_ITEM_KEY,
    secret_ciphertext: Buffer.from(ciphertext).toString('base64'),
    public_jwk: PublicOauthJwk.parse(keys.publicJwk),
    created_at: deps.clock.now().toISOString(),
  };
  try {
    await deps.store.put(item, { condition: { op: 'not_exists' } });
    return keys;
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    // Another function created it first: its key is the one, ours was never used.
    return keysOf(deps, await deps.store.get(OAUTH_KEY_ITEM_KEY, { consistent: true }));
  }
}
