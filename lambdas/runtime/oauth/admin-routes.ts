import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { Administrators } from '../../core/auth/administrators.js';
import { isDomainError } from '../../core/errors.js';
import type { Logger } from '../../core/ports/index.js';
import { ADMIN_PATH, adminPage, REVOKE_CLIENT_PATH, REVOKE_SESSION_PATH } from './admin-pages.js';
import { problemPage } from './interaction-pages.js';
import { ADMIN_CLIENT_ID, type OauthAdministration } from './oauth-administration.js';
import { auditedOauthChange, OAUTH_ACTION, type OauthAuditDeps } from './oauth-audit.js';
import { csrfToken, csrfTokenValid, readFormOrRefuse, sendPage } from './page-forms.js';

const CALLBACK_PATH = `${ADMIN_PATH}/callback`;
const MAX_FORM_BYTES = 4 * 1024;

export interface AdminRouteDeps extends OauthAuditDeps {
  provider: Provider;
  issuer: string;
  csrfKey: Buffer;
  administration: OauthAdministration;
  administrators: Administrators;
  logger: Logger;
}

/**
 * The admin page as a first-party client of this authorization server: a static client whose one
 * redirect is the page's callback, and whose grant is made on sign-in (no consent page: there is
 * nothing to share with it). Only the sign-in is wanted of the round trip: the page then knows
 * the person by the provider's own session cookie, as the authorization endpoint does.
 */
export function adminClientConfiguration(
  issuer: string,
): Pick<Configuration, 'clients' | 'loadExistingGrant'> {
  return {
    clients: [
      {
        client_id: ADMIN_CLIENT_ID,
        client_name: 'Meridian administration',
        redirect_uris: [`${issuer}${CALLBACK_PATH}`],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    // oidc-provider's default, plus the admin page's grant made on the spot.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { oidc } = ctx;
      const clientId = oidc.client?.clientId ?? '';
      const grantId = oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(clientId);
      if (grantId) return oidc.provider.Grant.find(grantId);
      if (clientId !== ADMIN_CLIENT_ID || !oidc.session?.accountId) return undefined;
      const grant = new oidc.provider.Grant({ clientId, accountId: oidc.session.accountId });
      grant.addOIDCScope('openid');
      await grant.save();
      oidc.session.grantIdFor(clientId, grant.jti);
      return grant;
    },
  };
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'cache-control': 'no-store' });
  res.end();
}

/**
 * Sends the browser to sign in as for any client: authorization code with PKCE (required of
 * every client here). The code is never redeemed — the verifier is thrown away — so it grants
 * nothing; the session cookie the sign-in leaves is what the page reads.
 */
function startSignIn(deps: AdminRouteDeps, res: ServerResponse): void {
  const challenge = createHash('sha256').update(randomBytes(32)).digest('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: ADMIN_CLIENT_ID,
    redirect_uri: `${deps.issuer}${CALLBACK_PATH}`,
    scope: 'openid',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: randomBytes(16).toString('base64url'),
  });
  redirect(res, `/oauth/authorize?${query}`);
}

/**
 * The line that says what the last revoke did, after its redirect (POST, then GET: a reload does
 * not revoke again). Composed here from a kind, an id and a count, never text from the link.
 */
function noticeOf(query: URLSearchParams): string | undefined {
  const id = query.get('id');
  if (!id) return undefined;
  if (query.get('revoked') === 'session') return `Revoked session ${id}.`;
  const ended = Number.parseInt(query.get('ended') ?? '', 10);
  if (query.get('revoked') === 'client' && Number.isInteger(ended))
    return `Revoked client ${id} and its ${ended} session(s).`;
  return undefined;
}

async function showAdminPage(
  deps: AdminRouteDeps,
  res: ServerResponse,
  person: string,
  csrf: string,
  url: URL,
) {
  const [clients, sessions] = await Promise.all([
    deps.administration.listClients(),
    deps.administration.listSessions(),
  ]);
  const notice = noticeOf(url.searchParams);
  sendPage(res, 200, adminPage({ person, csrf, clients, sessions, ...(notice ? { notice } : {}) }));
}

async function revoke(
  deps: AdminRouteDeps,
  res: ServerResponse,
  person: string,
  path: string,
  form: URLSearchParams,
) {
  const principal = `user:${person}`;
  if (path === REVOKE_SESSION_PATH) {
    const id = form.get('session') ?? '';
    await auditedOauthChange(
      deps,
      { action: OAUTH_ACTION.adminSessionRevoke, principal, client: ADMIN_CLIENT_ID, resourceIds: [id] },
      () => deps.administration.revokeSession(id),
      (done) => ({
        outcome: 'ok',
        output_resource_ids: [done.grant_id, ...(done.consent_id ? [done.consent_id] : [])],
      }),
    );
    return redirect(res, `${ADMIN_PATH}?${new URLSearchParams({ revoked: 'session', id })}`);
  }
  const id = form.get('client') ?? '';
  const done = await auditedOauthChange(
    deps,
    { action: OAUTH_ACTION.adminClientRevoke, principal, client: ADMIN_CLIENT_ID, resourceIds: [id] },
    () => deps.administration.revokeClient(id),
    (result) => ({ outcome: 'ok', output_resource_ids: [result.client_id, ...result.revoked_session_ids] }),
  );
  const ended = String(done.revoked_session_ids.length);
  redirect(res, `${ADMIN_PATH}?${new URLSearchParams({ revoked: 'client', id, ended })}`);
}

/**
 * `/oauth/admin…`: the administrators' page. No session → the sign-in; a person who is not an
 * administrator → 403; every POST carries the CSRF token bound to the session (the session
 * cookie is also SameSite=Lax). Answers false for a path that is not the admin page's.
 */
export async function handleAdmin(
  deps: AdminRouteDeps,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const path = url.pathname;
  if (path !== ADMIN_PATH && !path.startsWith(`${ADMIN_PATH}/`)) return false;
  if (path === CALLBACK_PATH) {
    const error = url.searchParams.get('error');
    if (error)
      sendPage(
        res,
        400,
        problemPage('Sign-in failed', `${error}: ${url.searchParams.get('error_description') ?? ''}`),
      );
    else redirect(res, ADMIN_PATH);
    return true;
  }
  const session = await deps.provider.Session.get(deps.provider.createContext(req, res) as never);
  const person = session.accountId;
  if (!person) {
    if (req.method === 'GET' && path === ADMIN_PATH) startSignIn(deps, res);
    else
      sendPage(
        res,
        401,
        problemPage('Signed out', 'Your sign-in has ended. Open the admin page again to sign in.'),
      );
    return true;
  }
  if (!(await deps.administrators.is(person))) {
    sendPage(
      res,
      403,
      problemPage(
        'Administrators only',
        `${person} is not an administrator of this Meridian server. An administrator can run \`meridian users admin ${person} on\`.`,
      ),
    );
    return true;
  }
  const csrf = csrfToken(deps.csrfKey, `admin:${session.uid}`);
  if (req.method === 'GET' && path === ADMIN_PATH) {
    await showAdminPage(deps, res, person, csrf, url);
    return true;
  }
  if (req.method !== 'POST' || (path !== REVOKE_SESSION_PATH && path !== REVOKE_CLIENT_PATH)) {
    sendPage(res, 404, problemPage('Not found', 'This admin page does not exist.'));
    return true;
  }
  const form = await readFormOrRefuse(req, res, MAX_FORM_BYTES);
  if (!form) return true;
  if (!csrfTokenValid(deps.csrfKey, `admin:${session.uid}`, form.get('csrf'))) {
    sendPage(
      res,
      403,
      problemPage('Form expired', 'The form was not sent from this admin page. Open the admin page again.'),
    );
    return true;
  }
  try {
    await revoke(deps, res, person, path, form);
  } catch (error) {
    if (!isDomainError(error) || error.code !== 'NOT_FOUND') throw error;
    sendPage(res, 404, problemPage('Not found', error.message));
  }
  return true;
}
