import { z } from 'zod';
import { DomainError } from '../errors.js';
import type { Clock, DocumentStore, RandomSource } from '../ports/index.js';
import { GSI1PK, PK_PREFIX, SK } from '../storage/key-prefixes.js';
import { queryAll } from '../storage/query-all.js';
import { hashSecret, newKeyMaterial, parseToken, secretMatches } from './api-key-token.js';
import { type Grant, grantAllows, type Principal, type Right } from './rights.js';

const ApiKeyItem = z.object({
  pk: z.string(),
  sk: z.literal(SK.apiKey.record),
  key_id: z.string(),
  label: z.string(),
  secret_hash: z.string(),
  created_at: z.string(),
  revoked_at: z.string().optional(),
  /** Toolsets enabled for connections that choose none; absent: all of them. */
  toolsets: z.array(z.string()).optional(),
});
type ApiKeyItem = z.infer<typeof ApiKeyItem>;

const GrantItem = z.object({
  pk: z.string(),
  sk: z.string(),
  calendar_id: z.string(),
  right: z.enum(['read', 'write']),
  granted_at: z.string(),
});

export interface ApiKeySummary {
  key_id: string;
  label: string;
  created_at: string;
  revoked_at?: string;
  toolsets?: string[];
}

export interface AccessDeps {
  store: DocumentStore;
  clock: Clock;
  random: RandomSource;
}

const keyPk = (keyId: string) => `${PK_PREFIX.apiKey}${keyId}`;
const GRANT_PREFIX = SK.apiKey.grantPrefix;

function summary(item: ApiKeyItem): ApiKeySummary {
  return {
    key_id: item.key_id,
    label: item.label,
    created_at: item.created_at,
    ...(item.revoked_at ? { revoked_at: item.revoked_at } : {}),
    ...(item.toolsets ? { toolsets: item.toolsets } : {}),
  };
}

/**
 * API keys and their per-calendar grants, in the document store (see docs/data-model.md).
 * A key's record and its grants share one partition, so "what may this key do" is one query.
 */
export class AccessStore {
  constructor(private readonly deps: AccessDeps) {}

  /**
   * Creates a key, optionally with default toolsets (names checked by the caller). The returned
   * token is the only time the secret exists outside the caller.
   */
  async createKey(
    label: string,
    options: { toolsets?: readonly string[] } = {},
  ): Promise<ApiKeySummary & { token: string }> {
    const { keyId, secret, token } = newKeyMaterial((n) => this.deps.random.bytes(n));
    const item: ApiKeyItem = {
      pk: keyPk(keyId),
      sk: SK.apiKey.record,
      key_id: keyId,
      label,
      secret_hash: hashSecret(secret),
      created_at: this.deps.clock.now().toISOString(),
      ...(options.toolsets ? { toolsets: [...options.toolsets] } : {}),
    };
    await this.deps.store.put(
      { ...item, gsi1pk: GSI1PK.apiKeys, gsi1sk: `${item.created_at}#${keyId}` },
      { condition: { op: 'not_exists' } },
    );
    return { ...summary(item), token };
  }

  /** The principal a bearer token stands for, or undefined (unknown, malformed or revoked). */
  async authenticate(token: string): Promise<Principal | undefined> {
    const parsed = parseToken(token);
    if (!parsed) return undefined;
    const item = await this.readKey(parsed.keyId);
    if (!item || item.revoked_at || !secretMatches(parsed.secret, item.secret_hash)) return undefined;
    return {
      kind: 'api-key',
      keyId: item.key_id,
      label: item.label,
      ...(item.toolsets ? { toolsets: item.toolsets } : {}),
    };
  }

  /** One key's summary; NOT_FOUND (saying how to list keys) when there is none. */
  async describeKey(keyId: string): Promise<ApiKeySummary> {
    return summary(await this.requireKey(keyId));
  }

  async listKeys(): Promise<ApiKeySummary[]> {
    const items = await queryAll(this.deps.store, { index: 'gsi1', partition: GSI1PK.apiKeys });
    return items.map((item) => summary(ApiKeyItem.parse(item)));
  }

  /** Revokes a key at once; its grants stay for the record but no request is accepted. */
  async revokeKey(keyId: string): Promise<ApiKeySummary> {
    const item = await this.requireKey(keyId);
    const revoked = { ...item, revoked_at: item.revoked_at ?? this.deps.clock.now().toISOString() };
    await this.deps.store.put({ ...revoked, gsi1pk: GSI1PK.apiKeys, gsi1sk: `${item.created_at}#${keyId}` });
    return summary(revoked);
  }

  /** Sets the toolsets a key's connections get when they choose none; undefined: all of them. */
  async setKeyToolsets(keyId: string, toolsets: readonly string[] | undefined): Promise<ApiKeySummary> {
    const { toolsets: _previous, ...item } = await this.requireKey(keyId);
    const updated: ApiKeyItem = toolsets ? { ...item, toolsets: [...toolsets] } : item;
    await this.deps.store.put({ ...updated, gsi1pk: GSI1PK.apiKeys, gsi1sk: `${item.created_at}#${keyId}` });
    return summary(updated);
  }

  /** Sets one calendar's grant for a key; `none` removes it. */
  async setGrant(keyId: string, calendarId: string, grant: Grant): Promise<void> {
    await this.requireKey(keyId);
    const key = { pk: keyPk(keyId), sk: `${GRANT_PREFIX}${calendarId}` };
    if (grant === 'none') {
      await this.deps.store.delete(key);
      return;
    }
    await this.deps.store.put({
      ...key,
      calendar_id: calendarId,
      right: grant,
      granted_at: this.deps.clock.now().toISOString(),
    });
  }

  /** Every calendar the key has a grant on, with the right. */
  async grantsOf(keyId: string): Promise<Map<string, Right>> {
    const items = await queryAll(this.deps.store, {
      partition: keyPk(keyId),
      beginsWith: GRANT_PREFIX,
      consistent: true,
    });
    return new Map(items.map((raw) => GrantItem.parse(raw)).map((g) => [g.calendar_id, g.right]));
  }

  /** Throws FORBIDDEN naming the calendar and the missing right unless the principal has it. */
  async requireRight(principal: Principal, calendarId: string, right: Right): Promise<void> {
    if (principal.kind === 'local-owner') return;
    const grant = (await this.grantsOf(principal.keyId)).get(calendarId);
    if (!grantAllows(grant, right)) {
      throw new DomainError(
        'FORBIDDEN',
        `This API key lacks ${right} access to calendar "${calendarId}". The owner can grant it with ` +
          `\`npx meridian grants set ${principal.keyId} ${calendarId} ${right}\`.`,
        { calendar_id: calendarId, missing_right: right, http_status: 403 },
      );
    }
  }

  private async readKey(keyId: string): Promise<ApiKeyItem | undefined> {
    const raw = await this.deps.store.get({ pk: keyPk(keyId), sk: SK.apiKey.record }, { consistent: true });
    return raw ? ApiKeyItem.parse(raw) : undefined;
  }

  private async requireKey(keyId: string): Promise<ApiKeyItem> {
    const item = await this.readKey(keyId);
    if (!item) {
      throw new DomainError(
        'NOT_FOUND',
        `No API key with id "${keyId}". List keys with \`npx meridian keys list\`.`,
        {
          key_id: keyId,
        },
      );
    }
    return item;
  }
}
