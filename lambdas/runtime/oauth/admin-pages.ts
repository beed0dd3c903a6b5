import { formatResourceRef } from '../../core/access/rights.js';
import { escapeHtml, page } from './interaction-pages.js';
import type { ClientSummary, SessionSummary } from './oauth-administration.js';

/*
 * The admin page (`/oauth/admin`): the same plain HTML as the sign-in pages (no script, nothing
 * from elsewhere, usable on a phone), one small form per revoke button, each with the CSRF token.
 */

export const ADMIN_PATH = '/oauth/admin';
export const REVOKE_SESSION_PATH = `${ADMIN_PATH}/revoke-session`;
export const REVOKE_CLIENT_PATH = `${ADMIN_PATH}/revoke-client`;

export interface AdminView {
  person: string;
  csrf: string;
  clients: readonly ClientSummary[];
  sessions: readonly SessionSummary[];
  /** What the last action did, shown once. */
  notice?: string;
}

function revokeForm(action: string, field: string, value: string, csrf: string, label: string): string {
  return `<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<input type="hidden" name="${field}" value="${escapeHtml(value)}">
<button type="submit" name="revoke" value="yes">${escapeHtml(label)}</button></form>`;
}

function sessionItem(session: SessionSummary, csrf: string): string {
  const toolsets = session.toolsets === 'all' ? 'all toolsets' : session.toolsets.join(', ');
  const grants =
    session.grants.map((g) => `${formatResourceRef(g.resource)} ${g.right}`).join(', ') || 'none';
  return `<li><strong>${escapeHtml(session.person)}</strong> → ${escapeHtml(session.clientName)}
<div class="note">Session <code>${escapeHtml(session.id)}</code> · client <code>${escapeHtml(session.clientId)}</code></div>
<div class="note">Toolsets: ${escapeHtml(toolsets)} · calendars and projects: ${escapeHtml(grants)}</div>
${session.consentRevokedAt ? `<div class="error">Consent revoked ${escapeHtml(session.consentRevokedAt)}: no token of it works.</div>` : ''}
<div class="note">Since ${escapeHtml(session.createdAt)} · last refresh ${escapeHtml(session.lastRefreshAt ?? 'never')} · expires ${escapeHtml(session.expiresAt ?? 'never')}</div>
${revokeForm(REVOKE_SESSION_PATH, 'session', session.id, csrf, 'Revoke this session')}</li>`;
}

function clientItem(client: ClientSummary, csrf: string): string {
  const hosts = client.redirectHosts.join(', ') || '—';
  return `<li><strong>${escapeHtml(client.name)}</strong> (${escapeHtml(client.origin)})
<div class="note">Client <code>${escapeHtml(client.clientId)}</code> · returns to ${escapeHtml(hosts)} · created ${escapeHtml(client.createdAt ?? '—')} · ${client.consents} consent(s)</div>
${client.revokedAt ? `<div class="error">Revoked ${escapeHtml(client.revokedAt)}</div>` : revokeForm(REVOKE_CLIENT_PATH, 'client', client.clientId, csrf, 'Revoke this client')}</li>`;
}

/** The administrator's page: every session (consent) and every client, each with its revoke button. */
export function adminPage(view: AdminView): string {
  const sessions = view.sessions.map((s) => sessionItem(s, view.csrf)).join('');
  const clients = view.clients.map((c) => clientItem(c, view.csrf)).join('');
  return page(
    'Meridian administration',
    `<h1>Meridian administration</h1>
<p class="note">Signed in as <strong>${escapeHtml(view.person)}</strong>. Revoking ends access at the client's next request.</p>
${view.notice ? `<p role="status"><strong>${escapeHtml(view.notice)}</strong></p>` : ''}
<h2>Sessions</h2>
${sessions ? `<ul>${sessions}</ul>` : '<p class="note">No one has signed in through a client.</p>'}
<h2>Clients</h2>
${clients ? `<ul>${clients}</ul>` : '<p class="note">No client has registered or signed in.</p>'}`,
  );
}
