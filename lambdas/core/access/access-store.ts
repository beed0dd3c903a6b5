import * as z from 'zod';
import { DomainError } from '../errors.js';
import { formatRate, LIMIT_NAMES, type LimitName, parseRate, type RateOverrides } from '../limits/rate.js';
import {
  type Clock,
  ConditionFailedError,
  type DocumentStore,
  type RandomSource,
  type TokenVerifier,
} from '../ports/index.js';
import { GSI1PK, PK_PREFIX, SK } from '../storage/key-prefixes.js';
import { queryAll } from '../storage/query-all.js';
import { hashSecret, newKeyMaterial, parseToken, secretMatches } from './api-key-token.js';
import { GRANT_PREFIX, grantFromItem, grantItemFields, grantSortKey } from './grant-items.js';
import {
  formatResourceRef,
  type Grant,
  grantAllows,
  type Principal,
  type ResourceGrant,
  type ResourceKind,
  type ResourceRef,
  type Right,
} from './rights.js';

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
  /** The key's own request budgets (`120/60s` or `off` by limit name); absent: the server's. */
  limits: z.partialRecord(z.enum(LIMIT_NAMES), z.string()).optional(),
});
type ApiKeyItem = z.infer<typeof ApiKeyItem>;

export interface ApiKeySummary {
  key_id: string;
  label: string;
  created_at: string;
  revoked_at?: string;
  toolsets?: string[];
  /** The key's own budgets, as `120/60s` or `off`; a limit not named takes the server's. */
  limits?: Partial<Record<LimitName, string>>;
}

export interface AccessDeps {
  store: DocumentStore;
  clock: Clock;
  random: RandomSource;
  /**
   * Compares a presented secret with a stored hash, in constant time.
   * @default secretMatches (SHA-256, timingSafeEqual); replaced only to observe which refusals run it.
   */
  secretMatches?: (secret: string, storedHash: string) => boolean;
}

const keyPk = (keyId: string) => `${PK_PREFIX.apiKey}${keyId}`;

/**
 * What an unknown key id is checked against, so that refusing it costs what refusing a known id
 * does (the record parsed, the secret hashed and compared): a refusal's timing does not tell
 * which ids exist. Its hash is never reached by a secret that matters: with no record, the
 * token is refused whatever the comparison says.
 */
/** Keys list in creation order: the index sort key of a key record. */
function apiKeyIndexSort(item: { created_at: string; key_id: string }): string {
  return `${item.created_at}#${item.key_id}`;
}

const UNKNOWN_KEY_RECORD: Record<string, unknown> = {
  pk: keyPk('unknown'),
  sk: SK.apiKey.record,
  key_id: 'unknown',
  label: 'unknown',
  secret_hash: hashSecret('no key has this secret'),
  created_at: '1970-01-01T00:00:00.000Z',
  // Shaped as a record read back, index fields included, so that parsing it strips as much.
  gsi1pk: GSI1PK.apiKeys,
  gsi1sk: apiKeyIndexSort({ created_at: '1970-01-01T00:00:00.000Z', key_id: 'unknown' }),
};

function summary(item: ApiKeyItem): ApiKeySummary {
  return {
    key_id: item.key_id,
    label: item.label,
    created_at: item.created_at,
    ...(item.revoked_at ? { revoked_at: item.revoked_at } : {}),
    ...(item.toolsets ? { toolsets: item.toolsets } : {}),
    ...(item.limits ? { limits: item.limits } : {}),
  };
}

/** A stored override read back; one that no longer parses is ignored (the server's budget applies). */
function rateOverrides(stored: Partial<Record<LimitName, string>>): RateOverrides {
  const overrides: RateOverrides = {};
  for (const [name, text] of Object.entries(stored) as [LimitName, string][]) {
    try {
      overrides[name] = parseRate(text, name);
    } catch {
      // Written by `keys limits`, which parses first: only a hand-edited item gets here.
    }
  }
  return overrides;
}

/**
 * What to do about a missing right. A signed-in person's token (a consent) was given exactly what
 * they chose on the consent page: the fix is to sign in again and choose more, not the key owner's
 * command, which names a key nobody holds.
 */
function missingRightMessage(
  principal: Extract<Principal, { kind: 'api-key' }>,
  resource: ResourceRef,
  right: Right,
): string {
  const what = `${right} access to ${resource.kind} "${resource.id}"`;
  if (principal.consentedToolsets)
    return (
      `This sign-in was not given ${what}. Sign in again from your app and choose ${right} for it on the ` +
      'consent page (you can only choose what an administrator granted you with `meridian users grant`).'
    );
  return (
    `This API key lacks ${what}. The owner can grant it with ` +
    `\`npx meridian grants set ${principal.keyId} ${formatResourceRef(resource)} ${right}\`.`
  );
}

/**
 * API keys and their grants on resources (calendars, projects), in the document store (see docs/data-model.md).
 * A key's record and its grants share one partition, so "what may this key do" is one query.
 * As a TokenVerifier it is the request pipeline's first way to authenticate a bearer token.
 */
export class AccessStore implements TokenVerifier {
  /**
   * The grants read with the key when a principal was authenticated, by that principal object.
   * An HTTP request authenticates once and its principal lives only as long as the request, so a
   * grant it already showed spares the read when a tool checks it (update_memory's round trips,
   * ADR 0009). Only to allow: a refusal is confirmed against the table, since the request itself
   * may have granted the resource since (initialize_context grants the project it creates).
   */
  private readonly grantsReadWith = new WeakMap<Principal, ReadonlyMap<string, Right>>();

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
      { ...item, gsi1pk: GSI1PK.apiKeys, gsi1sk: apiKeyIndexSort(item) },
      { condition: { op: 'not_exists' } },
    );
    return { ...summary(item), token };
  }

  /**
   * The principal a bearer token stands for, or undefined (unknown, malformed or revoked). The
   * key's record and its grants are one query (one partition), so the grants come with it.
   */
  async authenticate(token: string): Promise<Principal | undefined> {
    const parsed = parseToken(token);
    if (!parsed) return undefined;
    const rows = await queryAll(this.deps.store, { partition: keyPk(parsed.keyId), consistent: true });
    const record = rows.find((row) => row.sk === SK.apiKey.record);
    // The same steps whether the id is known, unknown or revoked; only the verdict differs.
    const item = ApiKeyItem.parse(record ?? UNKNOWN_KEY_RECORD);
    const matches = (this.deps.secretMatches ?? secretMatches)(parsed.secret, item.secret_hash);
    if (!record || item.revoked_at || !matches) return undefined;
    const principal: Principal = {
      kind: 'api-key',
      keyId: item.key_id,
      label: item.label,
      ...(item.toolsets ? { toolsets: item.toolsets } : {}),
      ...(item.limits ? { limits: rateOverrides(item.limits) } : {}),
    };
    const grants = rows.filter((row) => row.sk.startsWith(GRANT_PREFIX)).map(grantFromItem);
    this.grantsReadWith.set(principal, new Map(grants.map((g) => [grantSortKey(g.resource), g.right])));
    return principal;
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

  /** Sets a key's own request budgets (merged over those it has); undefined: the server's again. */
  async setKeyLimits(keyId: string, limits: RateOverrides | undefined): Promise<ApiKeySummary> {
    const { limits: previous, ...item } = await this.requireKey(keyId);
    const merged = limits && {
      ...previous,
      ...Object.fromEntries(Object.entries(limits).map(([name, rate]) => [name, formatRate(rate)])),
    };
    const updated: ApiKeyItem = merged ? { ...item, limits: merged } : item;
    await this.deps.store.put({ ...updated, gsi1pk: GSI1PK.apiKeys, gsi1sk: `${item.created_at}#${keyId}` });
    return summary(updated);
  }

  /** Sets a key's grant on one resource (a calendar, a project); `none` removes it. */
  async setGrant(keyId: string, resource: ResourceRef, grant: Grant): Promise<void> {
    await this.requireKey(keyId);
    const key = { pk: keyPk(keyId), sk: grantSortKey(resource) };
    if (grant === 'none') {
      await this.deps.store.delete(key);
      return;
    }
    await this.deps.store.put({
      ...key,
      ...grantItemFields(resource, grant, this.deps.clock.now().toISOString()),
    });
  }

  /** Every grant the key has, on resources of every kind. */
  async grantsOf(keyId: string): Promise<ResourceGrant[]> {
    const items = await queryAll(this.deps.store, {
      partition: keyPk(keyId),
      beginsWith: GRANT_PREFIX,
      consistent: true,
    });
    return items.map(grantFromItem);
  }

  /**
   * Removes the key's grants on resources of `kind`, granted before `grantedBefore`, that
   * `isGone` says no longer exist: what a crash between a grant and the record it grants leaves
   * (create_calendar writes the grant first). Each delete holds only if the grant is still the one
   * read, so a grant set again meanwhile stays. Answers the ids whose grants were removed.
   *
   * @example
   * await access.removeOrphanGrants(keyId, 'calendar', tenMinutesAgo, async (id) => !(await registry.findCalendar(id)));
   */
  async removeOrphanGrants(
    keyId: string,
    kind: ResourceKind,
    grantedBefore: Date,
    isGone: (resourceId: string) => Promise<boolean>,
  ): Promise<string[]> {
    const items = await queryAll(this.deps.store, {
      partition: keyPk(keyId),
      beginsWith: GRANT_PREFIX,
      consistent: true,
    });
    const removed: string[] = [];
    for (const item of items) {
      const { resource } = grantFromItem(item);
      const grantedAt = item.granted_at;
      if (resource.kind !== kind || typeof grantedAt !== 'string') continue;
      if (Date.parse(grantedAt) >= grantedBefore.getTime() || !(await isGone(resource.id))) continue;
      try {
        await this.deps.store.delete(
          { pk: keyPk(keyId), sk: grantSortKey(resource) },
          { condition: { op: 'eq', attribute: 'granted_at', value: grantedAt } },
        );
        removed.push(resource.id);
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
      }
    }
    return removed;
  }

  /** The key's right on each resource of one kind that it has a grant on, by resource id. */
  async rightsOn(keyId: string, kind: ResourceKind): Promise<Map<string, Right>> {
    const grants = (await this.grantsOf(keyId)).filter((g) => g.resource.kind === kind);
    return new Map(grants.map((g) => [g.resource.id, g.right]));
  }

  /**
   * Throws FORBIDDEN naming the resource (`resource_kind`, `resource_id`; calendars also
   * `calendar_id`, which clients read from before grants named a kind) and the missing right,
   * unless the principal has it.
   */
  async requireRight(principal: Principal, resource: ResourceRef, right: Right): Promise<void> {
    if (principal.kind === 'local-owner') return;
    const sortKey = grantSortKey(resource);
    if (grantAllows(this.grantsReadWith.get(principal)?.get(sortKey), right)) return;
    const stored = await this.deps.store.get(
      { pk: keyPk(principal.keyId), sk: sortKey },
      { consistent: true },
    );
    if (!grantAllows(stored ? grantFromItem(stored).right : undefined, right)) {
      throw new DomainError('FORBIDDEN', missingRightMessage(principal, resource, right), {
        ...(resource.kind === 'calendar' ? { calendar_id: resource.id } : {}),
        resource_kind: resource.kind,
        resource_id: resource.id,
        missing_right: right,
        http_status: 403,
      });
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
