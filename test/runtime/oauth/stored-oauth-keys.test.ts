import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EncryptionSdkEnvelope,
  rawAesKeyring,
} from '../../../lambdas/adapters/encryption/encryption-sdk-envelope.js';
import { ConditionFailedError, type DocumentStore, systemClock } from '../../../lambdas/core/ports/index.js';
import { PK_PREFIX } from '../../../lambdas/core/storage/key-prefixes.js';
import { readOauthPublicJwk } from '../../../lambdas/runtime/oauth/stored-oauth-key-item.js';
import { loadOrCreateStoredOauthKeys } from '../../../lambdas/runtime/oauth/stored-oauth-keys.js';
import { type StoreOnTable, startDynaliteStore } from '../../support/dynalite-store.js';
import { passThroughStore } from '../../support/pass-through-store.js';

let table: StoreOnTable;
const encryption = new EncryptionSdkEnvelope(rawAesKeyring(new Uint8Array(randomBytes(32))));

beforeAll(async () => {
  table = await startDynaliteStore('oauth-keys');
});
afterAll(() => table.close());

/** The store as two functions see it when both start at once: each reads "absent" before either writes. */
function racingStores(store: DocumentStore) {
  let arrived = 0;
  let release!: () => void;
  const bothRead = new Promise<void>((resolve) => {
    release = resolve;
  });
  const refusedPuts: unknown[] = [];
  const racer = () =>
    passThroughStore(store, {
      get: async (key, options) => {
        const item = await store.get(key, options);
        if (++arrived === 2) release();
        if (arrived <= 2) await bothRead;
        return item as never;
      },
      put: async (item, options) => {
        try {
          await store.put(item, options);
        } catch (error) {
          if (error instanceof ConditionFailedError) refusedPuts.push(error);
          throw error;
        }
      },
    });
  return { first: racer(), second: racer(), refusedPuts };
}

describe('loadOrCreateStoredOauthKeys', () => {
  it('ends two concurrent first creations with one key: the loser uses the winner’s', async () => {
    const { first, second, refusedPuts } = racingStores(table.store);

    const [a, b] = await Promise.all([
      loadOrCreateStoredOauthKeys({ store: first, encryption, clock: systemClock }),
      loadOrCreateStoredOauthKeys({ store: second, encryption, clock: systemClock }),
    ]);

    // Both created a secret; the table's condition let one in and the other read it back.
    expect(refusedPuts).toHaveLength(1);
    expect(a.publicJwk).toEqual(b.publicJwk);
    expect(a.signingJwk).toEqual(b.signingJwk);
    expect(a.cookieKeys).toEqual(b.cookieKeys);
    const { items } = await table.store.query({ partition: `${PK_PREFIX.oauthKey}signing` });
    expect(items).toHaveLength(1);
  });

  it('gives a later function the same keys, and the public key alone without decrypting', async () => {
    let decrypts = 0;
    const counting = {
      encrypt: encryption.encrypt.bind(encryption),
      decrypt: async (ciphertext: Uint8Array, context: Record<string, string>) => {
        decrypts += 1;
        return encryption.decrypt(ciphertext, context);
      },
    };
    let gets = 0;
    const store = passThroughStore(table.store, {
      get: async (key, options) => {
        gets += 1;
        return table.store.get(key, options);
      },
    });

    const publicJwk = await readOauthPublicJwk(store);
    expect({ gets, decrypts }).toEqual({ gets: 1, decrypts: 0 });
    const keys = await loadOrCreateStoredOauthKeys({ store, encryption: counting, clock: systemClock });

    expect(publicJwk).toEqual(keys.publicJwk);
    expect(decrypts).toBe(1);
    // The secret is stored encrypted, never as the key material itself.
    const item = (await table.store.get({ pk: `${PK_PREFIX.oauthKey}signing`, sk: 'KEY' }))!;
    expect(JSON.stringify(item)).not.toContain(String(keys.signingJwk.d));
  });

  it('refuses a secret encrypted under another key: nothing signs with a key it cannot read', async () => {
    const other = new EncryptionSdkEnvelope(rawAesKeyring(new Uint8Array(randomBytes(32))));

    await expect(
      loadOrCreateStoredOauthKeys({ store: table.store, encryption: other, clock: systemClock }),
    ).rejects.toThrow();
  });
});
