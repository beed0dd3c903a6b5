import type { Adapter, AdapterPayload } from 'oidc-provider';
import { PARTITION_KEY_BYTES, utf8Bytes } from '../../core/input-limits.js';
import type { Clock, DocumentStore, StoredItem } from '../../core/ports/index.js';
import { GSI1PK, PK_PREFIX, SK } from '../../core/storage/key-prefixes.js';
import { queryAll } from '../../core/storage/query-all.js';

export interface OidcAdapterDeps {
  store: DocumentStore;
  clock: Clock;
  /**
   * Seconds after its rotation during which a refresh token still works once more (it is
   * rotated again) instead of counting as reuse. Clients that lose the answer to a refresh, or
   * refresh twice at once (Claude Code has done both), would otherwise lose the whole sign-in.
   * @default 30
   */
  refreshReuseGraceSeconds?: number;
}

/** Records oidc-provider looks up by a second key: a grant's tokens, a session's uid. */
const oauthPk = (model: string, id: string) => `${PK_PREFIX.oauth}${model}#${id}`;

/**
 * Whether a key could be stored at all. Callers send codes, tokens, client ids and states of any
 * length, and the table refuses a longer key as a fault of its own; no record was ever stored
 * under one (oidc-provider's ids are 43 characters), so such an id is simply unknown.
 */
const storableKey = (pk: string) => utf8Bytes(pk) <= PARTITION_KEY_BYTES;

/** Not an oidc-provider model: the pointer from a session's uid to the session. */
const SESSION_UID = 'SessionUid';

/**
 * oidc-provider's storage on Meridian's document-store port (dynalite locally, DynamoDB on AWS):
 * one item per record, the payload as JSON, `expires_at` checked on every read (TTL deletion is
 * only garbage collection, as everywhere in Meridian). Records issued under a grant are indexed
 * by it (gsi1) so that revoking the grant — by the revocation endpoint, by a reused refresh
 * token, by an administrator — removes every code and token it issued; sessions are indexed by
 * the uid their cookie carries.
 *
 * @example
 * new Provider(issuer, { adapter: (model) => new DocumentStoreOidcAdapter(model, { store, clock }) });
 */
export class DocumentStoreOidcAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly deps: OidcAdapterDeps,
  ) {}

  private nowSeconds(): number {
    return Math.floor(this.deps.clock.now().getTime() / 1000);
  }

  private key(id: string) {
    return { pk: oauthPk(this.model, id), sk: SK.oauth.record };
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const expiresAt = expiresIn ? this.nowSeconds() + expiresIn : undefined;
    const item: StoredItem = {
      ...this.key(id),
      payload: JSON.stringify(payload),
      ...(expiresAt ? { expires_at: expiresAt, ttl: expiresAt } : {}),
      ...this.index(id, payload),
    };
    await this.deps.store.put(item);
    if (payload.uid) {
      await this.deps.store.put({
        pk: oauthPk(SESSION_UID, String(payload.uid)),
        sk: SK.oauth.record,
        id,
        ...(expiresAt ? { expires_at: expiresAt, ttl: expiresAt } : {}),
      });
    }
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (!storableKey(this.key(id).pk)) return undefined;
    const item = await this.deps.store.get(this.key(id), { consistent: true });
    if (!item || this.expired(item)) return undefined;
    const payload = JSON.parse(String(item.payload)) as AdapterPayload;
    return this.withinReuseGrace(payload) ? { ...payload, consumed: undefined } : payload;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    if (!storableKey(oauthPk(SESSION_UID, uid))) return undefined;
    const pointer = await this.deps.store.get(
      { pk: oauthPk(SESSION_UID, uid), sk: SK.oauth.record },
      { consistent: true },
    );
    if (!pointer || this.expired(pointer)) return undefined;
    return this.find(String(pointer.id));
  }

  async findByUserCode(): Promise<AdapterPayload | undefined> {
    // The device flow is not enabled: no record has a user code.
    return undefined;
  }

  async consume(id: string): Promise<void> {
    if (!storableKey(this.key(id).pk)) return;
    const item = await this.deps.store.get(this.key(id), { consistent: true });
    if (!item) return;
    const payload = JSON.parse(String(item.payload)) as AdapterPayload;
    // The first consumption's time is kept: a grace use must not extend the grace.
    const consumed = typeof payload.consumed === 'number' ? payload.consumed : this.nowSeconds();
    await this.deps.store.put({ ...item, payload: JSON.stringify({ ...payload, consumed }) });
  }

  async destroy(id: string): Promise<void> {
    if (!storableKey(this.key(id).pk)) return;
    await this.deps.store.delete(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    if (!storableKey(`${GSI1PK.oauthGrantPrefix}${grantId}`)) return;
    const issued = await queryAll(this.deps.store, {
      index: 'gsi1',
      partition: `${GSI1PK.oauthGrantPrefix}${grantId}`,
    });
    await this.deps.store.batchDelete(issued.map((item) => ({ pk: item.pk, sk: item.sk })));
  }

  /**
   * The gsi1 entry: records issued under a grant by the grant; clients and grants themselves in
   * the listings `meridian clients|sessions` read (oauth-administration.ts).
   */
  private index(id: string, payload: AdapterPayload): Pick<StoredItem, 'gsi1pk' | 'gsi1sk'> {
    if (payload.grantId)
      return { gsi1pk: `${GSI1PK.oauthGrantPrefix}${payload.grantId}`, gsi1sk: `${this.model}#${id}` };
    if (this.model === 'Client') return { gsi1pk: GSI1PK.oauthClients, gsi1sk: id };
    if (this.model === 'RevokedClient') return { gsi1pk: GSI1PK.oauthRevokedClients, gsi1sk: id };
    if (this.model === 'Grant')
      return { gsi1pk: GSI1PK.oauthGrants, gsi1sk: `${String(payload.accountId)}#${id}` };
    return {};
  }

  private expired(item: StoredItem): boolean {
    return typeof item.expires_at === 'number' && item.expires_at <= this.nowSeconds();
  }

  /** A rotated refresh token, used again within the grace: shown as unused, so it rotates once more. */
  private withinReuseGrace(payload: AdapterPayload): boolean {
    if (this.model !== 'RefreshToken' || typeof payload.consumed !== 'number') return false;
    return this.nowSeconds() - payload.consumed < (this.deps.refreshReuseGraceSeconds ?? 30);
  }
}
