import type { AccessStore } from '../../core/access/access-store.js';
import { formatResourceRef } from '../../core/access/rights.js';
import type { Clock, DocumentStore } from '../../core/ports/index.js';
import { OauthAdministration, type SessionSummary } from '../oauth/oauth-administration.js';
import { type CliOutput, UsageError } from './access-commands.js';

const CLIENTS_USAGE = 'Usage: meridian clients list | clients revoke CLIENT_ID';
const SESSIONS_USAGE = 'Usage: meridian sessions list [--user NAME] | sessions revoke SESSION_ID';

/** What both commands need of a runtime: the embedded one, or the AWS admin one with `--aws`. */
export interface OauthAdminRuntime {
  store: DocumentStore;
  clock: Clock;
  access: AccessStore;
}

function sessionLine(session: SessionSummary): string {
  const toolsets = session.toolsets === 'all' ? 'all toolsets' : session.toolsets.join(',');
  const grants =
    session.grants.map((g) => `${formatResourceRef(g.resource)}=${g.right}`).join(',') || 'no grants';
  return [
    session.id,
    session.person,
    session.clientId,
    `toolsets ${toolsets}`,
    grants,
    `created ${session.createdAt}`,
    `last refresh ${session.lastRefreshAt ?? 'never'}`,
    `expires ${session.expiresAt ?? 'never'}`,
    `consent ${session.consentId ?? '-'}`,
    ...(session.consentRevokedAt ? [`CONSENT REVOKED ${session.consentRevokedAt}`] : []),
  ].join('  ');
}

/**
 * `meridian clients list|revoke`: the MCP clients of the authorization server. `revoke` answers
 * what it touched, for the audit log (cli/audited-command.ts).
 */
export async function clientsCommand(
  runtime: OauthAdminRuntime,
  args: string[],
  out: CliOutput,
): Promise<unknown> {
  const admin = new OauthAdministration(runtime);
  const [action, clientId, ...extra] = args;
  if (action === 'list' && clientId === undefined) {
    const clients = await admin.listClients();
    if (clients.length === 0)
      return out.line('No clients. They appear once an MCP client registers or signs someone in.');
    for (const c of clients)
      out.line(
        [
          c.clientId,
          JSON.stringify(c.name),
          c.origin,
          `redirects ${c.redirectHosts.join(',') || '-'}`,
          `created ${c.createdAt ?? '-'}`,
          `${c.consents} consent(s)`,
          ...(c.revokedAt ? [`REVOKED ${c.revokedAt}`] : []),
        ].join('  '),
      );
    return;
  }
  if (action === 'revoke') {
    if (!clientId || extra.length > 0)
      throw new UsageError(
        `clients revoke needs one CLIENT_ID (see \`meridian clients list\`).\n${CLIENTS_USAGE}`,
      );
    const done = await admin.revokeClient(clientId);
    out.line(
      `Revoked client ${clientId}: it can start no new sign-in, and its ${done.revoked_session_ids.length} session(s) ended (their tokens stop at the next request).`,
    );
    return done;
  }
  throw new UsageError(CLIENTS_USAGE);
}

/** `meridian sessions list [--user NAME]|revoke ID`: people's consents and their refresh tokens. */
export async function sessionsCommand(
  runtime: OauthAdminRuntime,
  args: string[],
  flags: { user?: string },
  out: CliOutput,
): Promise<unknown> {
  const admin = new OauthAdministration(runtime);
  const [action, sessionId, ...extra] = args;
  if (action === 'list' && sessionId === undefined) {
    const sessions = await admin.listSessions(flags.user ? { person: flags.user } : {});
    if (sessions.length === 0)
      return out.line(
        flags.user
          ? `${flags.user} has no sessions.`
          : 'No sessions. One starts when a person signs in through an MCP client.',
      );
    for (const session of sessions) out.line(sessionLine(session));
    return;
  }
  if (action === 'revoke') {
    if (!sessionId || extra.length > 0 || flags.user)
      throw new UsageError(
        `sessions revoke needs one SESSION_ID (see \`meridian sessions list\`).\n${SESSIONS_USAGE}`,
      );
    const done = await admin.revokeSession(sessionId);
    out.line(
      `Revoked session ${sessionId}: its refresh tokens are gone and its access tokens stop at the next request.`,
    );
    return done;
  }
  throw new UsageError(SESSIONS_USAGE);
}
