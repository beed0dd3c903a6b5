import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { DocumentStoreOidcAdapter } from '../../adapters/oauth/document-store-oidc-adapter.js';
import type { AccessStore } from '../../core/access/access-store.js';
import {
  formatResourceRef,
  type Grant,
  grantAllows,
  parseResourceRef,
  type ResourceGrant,
  type ResourceRef,
} from '../../core/access/rights.js';
import { consentLabel } from '../../core/auth/consent-label.js';
import type { LocalUsers } from '../../core/auth/local-users.js';
import { scopeOfToolset, toolsetsOfScope } from '../../core/auth/toolset-scopes.js';
import { sanitizeText } from '../../core/firewall/sanitize-text.js';
import type { Logger } from '../../core/ports/index.js';
import { consentPage, problemPage, signInPage } from './interaction-pages.js';
import { auditedOauthChange, OAUTH_ACTION, type OauthAuditDeps } from './oauth-audit.js';
import { csrfToken, csrfTokenValid, readFormOrRefuse, sendPage } from './page-forms.js';
import { sendToUpstream } from './upstream-callback-route.js';
import type { UpstreamSignIn } from './upstream-sign-in.js';

/** Where oidc-provider sends the browser to sign in and consent: `/oauth/interaction/<uid>`. */
export const INTERACTION_PATH = '/oauth/interaction/';

const MAX_FORM_BYTES = 16 * 1024;

export interface InteractionDeps extends OauthAuditDeps {
  provider: Provider;
  users: LocalUsers;
  access: AccessStore;
  /** The canonical MCP URL: the one resource consents are given for. */
  resource: string;
  /** Every toolset there is: a consent names only these. */
  toolsets: readonly string[];
  csrfKey: Buffer;
  /** Where the consent behind each grant is remembered (grant id → consent key id). */
  consentLinks: DocumentStoreOidcAdapter;
  /** How long a consent's link lives: as long as its grant. */
  grantTtlSeconds: number;
  logger: Logger;
  /** People sign in at the organization's issuer: no password form (upstream-callback-route.ts). */
  upstream?: UpstreamSignIn;
}

interface ClientFacts {
  name: string;
  clientId: string;
  redirectHost: string;
  registration: string;
}

async function clientFacts(provider: Provider, clientId: string, redirectUri: string): Promise<ClientFacts> {
  const client = await provider.Client.find(clientId);
  const described = (client as unknown as { clientIdMetadataDocument?: boolean } | undefined)
    ?.clientIdMetadataDocument;
  let redirectHost = redirectUri;
  try {
    redirectHost = new URL(redirectUri).host;
  } catch {
    // shown as given
  }
  return {
    name: client?.clientName ?? clientId,
    clientId,
    redirectHost,
    registration: described ? 'self-described by its metadata document' : 'registered with this server',
  };
}

/** The toolsets the client asked for (its `scope`), among those that exist; all of them when it named none. */
function askedToolsets(deps: InteractionDeps, scope: unknown): string[] {
  const asked = toolsetsOfScope(typeof scope === 'string' ? scope : undefined).filter((t) =>
    deps.toolsets.includes(t),
  );
  return asked.length > 0 ? asked : [...deps.toolsets];
}

/**
 * The consent a person submitted, checked against what they have: every right at most theirs
 * (a crafted form cannot widen it), every toolset one the client asked for. Undefined with the
 * problem otherwise.
 */
function chosenGrants(
  form: URLSearchParams,
  theirs: readonly ResourceGrant[],
): { grants: { grant: ResourceGrant; right: Grant }[] } | { problem: string } {
  const chosen: { grant: ResourceGrant; right: Grant }[] = [];
  for (const [field, value] of form) {
    if (!field.startsWith('grant:')) continue;
    const name = field.slice('grant:'.length);
    let resource: ResourceRef;
    try {
      resource = parseResourceRef(name);
    } catch {
      // Only a crafted form names no resource; the page offers none such.
      return { problem: `You cannot give access to ${name}: it names no calendar or project of yours.` };
    }
    const own = theirs.find((g) => g.resource.kind === resource.kind && g.resource.id === resource.id);
    if (value !== 'none' && value !== 'read' && value !== 'write')
      return { problem: `Unknown access "${value}".` };
    if (value === 'none') continue;
    if (!own || !grantAllows(own.right, value))
      return { problem: `You cannot give ${value} access to ${name}.` };
    chosen.push({ grant: own, right: value });
  }
  return { grants: chosen };
}

async function showPage(deps: InteractionDeps, req: IncomingMessage, res: ServerResponse, problem?: string) {
  const details = await deps.provider.interactionDetails(req, res);
  const { uid, params, prompt, session } = details;
  const client = await clientFacts(deps.provider, String(params.client_id), String(params.redirect_uri));
  const csrf = csrfToken(deps.csrfKey, `interaction:${uid}`);
  if (prompt.name === 'login' || !session?.accountId) {
    if (deps.upstream) return sendToUpstream({ ...deps, upstream: deps.upstream }, uid, res);
    return sendPage(
      res,
      problem ? 401 : 200,
      signInPage({
        action: `${INTERACTION_PATH}${uid}/login`,
        csrf,
        clientName: client.name,
        ...(problem ? { problem } : {}),
      }),
    );
  }
  const person = session.accountId;
  sendPage(
    res,
    problem ? 400 : 200,
    consentPage({
      action: `${INTERACTION_PATH}${uid}/consent`,
      csrf,
      person,
      client,
      toolsets: askedToolsets(deps, params.scope),
      grants: await deps.users.grantsOf(person),
      ...(problem ? { problem } : {}),
    }),
  );
}

async function signIn(
  deps: InteractionDeps,
  req: IncomingMessage,
  res: ServerResponse,
  form: URLSearchParams,
) {
  // With an issuer configured, passwords are not a way in, even in a form posted by hand.
  if (deps.upstream)
    return sendPage(res, 403, problemPage('Sign in at your organization', 'Start again from your app.'));
  const details = await deps.provider.interactionDetails(req, res);
  const userName = form.get('username') ?? '';
  const person = await deps.users.verify(userName, form.get('password') ?? '');
  // A refusal names the account only when it exists: a password typed into the name field is not kept.
  const attempted = person ?? ((await deps.users.exists(userName).catch(() => false)) ? userName : undefined);
  await auditedOauthChange(
    deps,
    {
      action: OAUTH_ACTION.signIn,
      principal: person ? `user:${person}` : 'anonymous',
      client: String(details.params.client_id),
      resourceIds: [...(attempted ? [`user:${attempted}`] : []), String(details.params.client_id)],
    },
    async () => person,
    (signedIn) => (signedIn ? { outcome: 'ok' } : { outcome: 'refused', code: 'SIGN_IN_REFUSED' }),
  );
  if (!person) return showPage(deps, req, res, 'That user name and password do not match. Try again.');
  await deps.provider.interactionFinished(
    req,
    res,
    { login: { accountId: person } },
    { mergeWithLastSubmission: false },
  );
}

async function consent(
  deps: InteractionDeps,
  req: IncomingMessage,
  res: ServerResponse,
  form: URLSearchParams,
) {
  const details = await deps.provider.interactionDetails(req, res);
  const person = details.session?.accountId;
  if (!person) return showPage(deps, req, res, 'Sign in first.');
  if (form.has('deny') || !form.has('approve')) {
    return deps.provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'The person denied the request.' },
      { mergeWithLastSubmission: false },
    );
  }
  const asked = askedToolsets(deps, details.params.scope);
  const toolsets = form.getAll('toolset').filter((t) => asked.includes(t));
  if (toolsets.length === 0) return showPage(deps, req, res, 'Choose at least one toolset, or deny.');
  const chosen = chosenGrants(form, await deps.users.grantsOf(person));
  if ('problem' in chosen) return showPage(deps, req, res, chosen.problem);
  const clientId = String(details.params.client_id);
  const client = await clientFacts(deps.provider, clientId, String(details.params.redirect_uri));
  // The consent is an API key nobody holds the secret of: its grants are exactly those chosen,
  // `meridian keys list|revoke` and `meridian grants` see it, and the bearer check reads it.
  // A registered client names itself: its name is stored text like any label (keys list, logs).
  const clientName = sanitizeText(client.name).text.trim().slice(0, 80) || clientId;
  const recorded = await auditedOauthChange(
    deps,
    {
      action: OAUTH_ACTION.consentGrant,
      principal: `user:${person}`,
      client: clientId,
      values: { client_id: clientId, toolsets: toolsets.length, grants: chosen.grants.length },
      resourceIds: [clientId, ...chosen.grants.map(({ grant }) => formatResourceRef(grant.resource))],
    },
    () => recordConsent(deps, { person, clientId, clientName, toolsets, asked, chosen: chosen.grants }),
    ({ keyId, grantId }) => ({ outcome: 'ok', output_resource_ids: [keyId, grantId] }),
  );
  await deps.provider.interactionFinished(
    req,
    res,
    { consent: { grantId: recorded.grantId } },
    { mergeWithLastSubmission: true },
  );
}

/** The consent as an API key with exactly the chosen grants, and oidc-provider's grant linked to it. */
async function recordConsent(
  deps: InteractionDeps,
  consent: {
    person: string;
    clientId: string;
    clientName: string;
    toolsets: string[];
    asked: string[];
    chosen: { grant: ResourceGrant; right: Grant }[];
  },
): Promise<{ keyId: string; grantId: string }> {
  const { person, clientId, clientName, toolsets, asked } = consent;
  const key = await deps.access.createKey(consentLabel(clientName, person), { toolsets });
  for (const { grant, right } of consent.chosen)
    await deps.access.setGrant(key.key_id, grant.resource, right);
  const grant = new deps.provider.Grant({ accountId: person, clientId });
  const scope = toolsets.map(scopeOfToolset).join(' ');
  grant.addResourceScope(deps.resource, scope);
  // Listed as the server's scopes too (so registrations may name them), they are checked as
  // requested scopes as well: granted on both sides, or the consent prompt would come back.
  grant.addOIDCScope(scope);
  // Toolsets asked for and left unticked are refused, not pending: the prompt must not come back.
  const refused = asked.filter((toolset) => !toolsets.includes(toolset)).map(scopeOfToolset);
  if (refused.length > 0) {
    grant.rejectResourceScope(deps.resource, refused);
    grant.rejectOIDCScope(refused);
  }
  const grantId = await grant.save();
  await deps.consentLinks.upsert(grantId, { consentId: key.key_id }, deps.grantTtlSeconds);
  deps.logger.info('oauth consent recorded', { person, client_id: clientId, consent: key.key_id, toolsets });
  return { keyId: key.key_id, grantId };
}

/**
 * The sign-in and consent pages, for `GET|POST /oauth/interaction/<uid>[/login|/consent]`. Every
 * POST carries a CSRF token bound to the interaction (HMAC of its uid) besides the interaction
 * cookie, which is SameSite and scoped to the path.
 */
export async function handleInteraction(
  deps: InteractionDeps,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const [uid, step] = path.slice(INTERACTION_PATH.length).split('/');
  try {
    if (req.method === 'GET' && uid && !step) return await showPage(deps, req, res);
    if (req.method !== 'POST' || !uid || (step !== 'login' && step !== 'consent'))
      return sendPage(res, 404, problemPage('Not found', 'This sign-in page does not exist.'));
    const form = await readFormOrRefuse(req, res, MAX_FORM_BYTES);
    if (!form) return;
    if (!csrfTokenValid(deps.csrfKey, `interaction:${uid}`, form.get('csrf')))
      return sendPage(
        res,
        403,
        problemPage('Form expired', 'The form was not sent from this sign-in. Start again from your app.'),
      );
    if (step === 'login') return await signIn(deps, req, res, form);
    return await consent(deps, req, res, form);
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'SessionNotFound' || name === 'InvalidRequest')
      return sendPage(
        res,
        400,
        problemPage(
          'Sign-in expired',
          'This sign-in has expired or was finished. Start again from your app.',
        ),
      );
    deps.logger.error('oauth interaction failed', { error });
    if (!res.headersSent) sendPage(res, 500, problemPage('Something went wrong', 'Try again from your app.'));
  }
}
