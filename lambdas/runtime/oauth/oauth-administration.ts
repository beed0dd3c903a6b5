import type { AdapterPayload } from 'oidc-provider';
import { DocumentStoreOidcAdapter } from '../../adapters/oauth/document-store-oidc-adapter.js';
import type { AccessStore } from '../../core/access/access-store.js';
import type { ResourceGrant } from '../../core/access/rights.js';
import { DomainError } from '../../core/errors.js';
import type { Clock, DocumentStore, StoredItem } from '../../core/ports/index.js';
import { GSI1PK } from '../../core/storage/key-prefixes.js';
import { queryAll } from '../../core/storage/query-all.js';

/** The admin page's own client (admin-page.ts): a static client, never listed or revoked. */
export const ADMIN_CLIENT_ID = 'meridian-admin';

/** Not an oidc-provider model: a revoked client's tombstone, which `allowClient` and listings read. */
const REVOKED_CLIENT = 'RevokedClient';

export interface OauthAdministrationDeps {
  store: DocumentStore;
  clock: Clock;
  access: AccessStore;
}

/** How a client came to this server. */
export type ClientOrigin = 'registered' | 'metadata document' | 'pre-registered';

export interface ClientSummary {
  clientId: string;
  name: string;
  origin: ClientOrigin;
  redirectHosts: string[];
  /** Absent for a metadata-document client: nothing is stored of it but its grants. */
  createdAt?: string;
  /** Live consents (grants) of the client. */
  consents: number;
  revokedAt?: string;
}

export interface SessionSummary {
  /** The grant's id: what `meridian sessions revoke` takes. */
  id: string;
  person: string;
  clientId: string;
  /** The consent's label (`oauth: <client> for <person>`), else the client id. */
  label: string;
  /** The client's name as the consent recorded it, else the client id. */
  clientName: string;
  toolsets: readonly string[] | 'all';
  grants: ResourceGrant[];
  createdAt: string;
  expiresAt?: string;
  /** When a refresh token was last issued under the grant (a sign-in or a refresh). */
  lastRefreshAt?: string;
  consentId?: string;
  /** Set when the consent key was revoked apart (`keys revoke`, `users remove`): no token of it works. */
  consentRevokedAt?: string;
}

const isoOfSeconds = (seconds: unknown) =>
  typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : undefined;

function payloadOf(item: StoredItem): AdapterPayload {
  return JSON.parse(String(item.payload)) as AdapterPayload;
}

/** The client's name in a consent's label, `oauth: <client> for <person>` (core/auth/consent-label.ts). */
function clientNameOf(label: string): string {
  return label.replace(/^oauth: /, '').replace(/ for \S+$/, '');
}

function hostsOf(uris: unknown): string[] {
  if (!Array.isArray(uris)) return [];
  const hosts = uris.map((uri) => URL.parse(String(uri))?.host || String(uri));
  return [...new Set(hosts)];
}

/**
 * A metadata-document client nobody signed in with yet: known by its URL alone, it may be refused
 * ahead of its first sign-in. Other unknown ids are mistakes, not clients.
 */
function unseenMetadataDocumentClient(clientId: string): ClientSummary | undefined {
  if (!URL.canParse(clientId) || new URL(clientId).protocol !== 'https:') return undefined;
  return { clientId, name: clientId, origin: 'metadata document', redirectHosts: [], consents: 0 };
}

/**
 * The authorization server's clients and sessions, for `meridian clients|sessions` and the admin
 * page (ADR 0013, administration). It works on the table alone — no running provider, so the CLI
 * reaches a deployment with `--aws` — through the same records oidc-provider reads: revoking
 * removes a grant and every code and token issued under it, and revokes the consent key, so an
 * access token already out stops at its next request and its refresh token finds nothing.
 *
 * @example
 * const admin = new OauthAdministration({ store, clock, access });
 * for (const session of await admin.listSessions({ person: 'alice' })) await admin.revokeSession(session.id);
 */
export class OauthAdministration {
  private readonly grants: DocumentStoreOidcAdapter;
  private readonly clients: DocumentStoreOidcAdapter;
  private readonly revokedClients: DocumentStoreOidcAdapter;
  private readonly consentLinks: DocumentStoreOidcAdapter;

  constructor(private readonly deps: OauthAdministrationDeps) {
    this.grants = new DocumentStoreOidcAdapter('Grant', deps);
    this.clients = new DocumentStoreOidcAdapter('Client', deps);
    this.revokedClients = new DocumentStoreOidcAdapter(REVOKED_CLIENT, deps);
    this.consentLinks = new DocumentStoreOidcAdapter('ConsentLink', deps);
  }

  /** True once `revokeClient` ended this client: it may start no sign-in (even by its metadata document). */
  async isClientRevoked(clientId: string): Promise<boolean> {
    return (await this.revokedClients.find(clientId)) !== undefined;
  }

  /** Every live grant, a person's only with `person`, oldest first per person. */
  async listSessions(filter: { person?: string } = {}): Promise<SessionSummary[]> {
    const items = await queryAll(this.deps.store, {
      index: 'gsi1',
      partition: GSI1PK.oauthGrants,
      ...(filter.person ? { beginsWith: `${filter.person.toLowerCase()}#` } : {}),
    });
    const now = this.deps.clock.now().getTime() / 1000;
    const live = items
      .filter((item) => typeof item.expires_at !== 'number' || item.expires_at > now)
      .map(payloadOf)
      .filter((grant) => grant.clientId !== ADMIN_CLIENT_ID);
    return Promise.all(live.map((grant) => this.describeSession(grant)));
  }

  private async describeSession(grant: AdapterPayload): Promise<SessionSummary> {
    const id = String(grant.jti);
    const consentId = (await this.consentLinks.find(id))?.consentId as string | undefined;
    const consent = consentId
      ? await this.deps.access.describeKey(consentId).catch(() => undefined)
      : undefined;
    const issued = await queryAll(this.deps.store, {
      index: 'gsi1',
      partition: `${GSI1PK.oauthGrantPrefix}${id}`,
    });
    const refreshedAt = issued
      .filter((item) => String(item.gsi1sk).startsWith('RefreshToken#'))
      .map((item) => Number(payloadOf(item).iat))
      .filter(Number.isFinite);
    const lastRefreshAt = refreshedAt.length > 0 ? isoOfSeconds(Math.max(...refreshedAt)) : undefined;
    const expiresAt = isoOfSeconds(grant.exp);
    return {
      id,
      person: String(grant.accountId),
      clientId: String(grant.clientId),
      label: consent?.label ?? String(grant.clientId),
      clientName: consent ? clientNameOf(consent.label) : String(grant.clientId),
      toolsets: consent?.toolsets ?? 'all',
      grants: consentId ? await this.deps.access.grantsOf(consentId) : [],
      createdAt: isoOfSeconds(grant.iat) ?? '',
      ...(expiresAt ? { expiresAt } : {}),
      ...(lastRefreshAt ? { lastRefreshAt } : {}),
      ...(consentId ? { consentId } : {}),
      ...(consent?.revoked_at ? { consentRevokedAt: consent.revoked_at } : {}),
    };
  }

  /**
   * Ends one consent: the grant, every code and refresh token issued under it, and the consent
   * key (access tokens stop at their next request). NOT_FOUND names the command that lists them.
   */
  async revokeSession(grantId: string): Promise<{ grant_id: string; consent_id?: string }> {
    const grant = await this.grants.find(grantId);
    if (!grant)
      throw new DomainError(
        'NOT_FOUND',
        `No session "${grantId}" (it may have expired or been revoked). List them with \`meridian sessions list\`.`,
        { session_id: grantId },
      );
    const consentId = (await this.consentLinks.find(grantId))?.consentId as string | undefined;
    // The key first: from here on no access token of the consent is accepted, whatever follows.
    if (consentId) await this.deps.access.revokeKey(consentId);
    await this.grants.revokeByGrantId(grantId);
    await this.grants.destroy(grantId);
    return { grant_id: grantId, ...(consentId ? { consent_id: consentId } : {}) };
  }

  /**
   * Every client: those stored (registered, pre-registered), those known only by their grants
   * (metadata-document clients, fetched and cached by the provider, never stored), and revoked ones.
   */
  async listClients(): Promise<ClientSummary[]> {
    const [stored, sessions] = await Promise.all([
      queryAll(this.deps.store, { index: 'gsi1', partition: GSI1PK.oauthClients }),
      this.listSessions(),
    ]);
    const consents = new Map<string, number>();
    for (const session of sessions) consents.set(session.clientId, (consents.get(session.clientId) ?? 0) + 1);
    const byId = new Map<string, ClientSummary>();
    for (const item of stored) {
      const metadata = payloadOf(item);
      const clientId = String(metadata.client_id);
      byId.set(clientId, {
        clientId,
        name: typeof metadata.client_name === 'string' ? metadata.client_name : clientId,
        // Dynamic registration stamps the client; a pre-registered one is stored as given.
        origin: typeof metadata.client_id_issued_at === 'number' ? 'registered' : 'pre-registered',
        redirectHosts: hostsOf(metadata.redirect_uris),
        ...(typeof metadata.client_id_issued_at === 'number'
          ? { createdAt: isoOfSeconds(metadata.client_id_issued_at) }
          : {}),
        consents: consents.get(clientId) ?? 0,
      });
    }
    for (const session of sessions) {
      if (byId.has(session.clientId)) continue;
      byId.set(session.clientId, {
        clientId: session.clientId,
        name: session.clientName,
        origin: 'metadata document',
        redirectHosts: [],
        consents: consents.get(session.clientId) ?? 0,
      });
    }
    for (const item of await queryAll(this.deps.store, {
      index: 'gsi1',
      partition: GSI1PK.oauthRevokedClients,
    })) {
      const tombstone = payloadOf(item) as unknown as ClientSummary;
      if (!byId.has(tombstone.clientId)) byId.set(tombstone.clientId, { ...tombstone, consents: 0 });
    }
    return [...byId.values()].sort((a, b) => a.clientId.localeCompare(b.clientId));
  }

  /**
   * Ends a client: it may start no new sign-in (its stored record goes, and a tombstone refuses
   * it even by its metadata document), and every consent it holds is revoked.
   */
  async revokeClient(clientId: string): Promise<{ client_id: string; revoked_session_ids: string[] }> {
    const clients = await this.listClients();
    const client = clients.find((c) => c.clientId === clientId) ?? unseenMetadataDocumentClient(clientId);
    if (!client || client.revokedAt)
      throw new DomainError(
        'NOT_FOUND',
        client
          ? `Client "${clientId}" is already revoked.`
          : `No client "${clientId}". List them with \`meridian clients list\`.`,
        { client_id: clientId },
      );
    const revokedAt = this.deps.clock.now().toISOString();
    const { consents: _count, ...kept } = client;
    await this.revokedClients.upsert(clientId, { ...kept, revokedAt } as AdapterPayload, 0);
    await this.clients.destroy(clientId);
    const sessions = (await this.listSessions()).filter((session) => session.clientId === clientId);
    for (const session of sessions) await this.revokeSession(session.id);
    return { client_id: clientId, revoked_session_ids: sessions.map((session) => session.id) };
  }
}
