import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseCookie, stringifySetCookie } from 'cookie';
import type Provider from 'oidc-provider';
import type { LocalUsers } from '../../core/auth/local-users.js';
import type { Logger } from '../../core/ports/index.js';
import { PAGE_HEADERS, problemPage } from './interaction-pages.js';
import { auditedOauthChange, OAUTH_ACTION, type OauthAuditDeps } from './oauth-audit.js';
import type { UpstreamSignIn } from './upstream-sign-in.js';

export interface UpstreamRouteDeps extends OauthAuditDeps {
  provider: Provider;
  users: LocalUsers;
  upstream: UpstreamSignIn;
  logger: Logger;
}

function send(res: ServerResponse, status: number, title: string, message: string): void {
  res.writeHead(status, PAGE_HEADERS);
  res.end(problemPage(title, message));
}

/**
 * The cookie that binds a sign-in at the issuer to the browser that started it: one per
 * interaction (two tabs may sign in at once), sent only to the callback's path, never to scripts.
 * SameSite=Lax still sends it on the issuer's top-level redirect back.
 */
function browserKeyCookie(upstream: UpstreamSignIn, uid: string, value: string, maxAge: number): string {
  const callback = new URL(upstream.redirectUri);
  return stringifySetCookie(`meridian_upstream_${uid}`, value, {
    path: callback.pathname,
    maxAge,
    httpOnly: true,
    sameSite: 'lax',
    secure: callback.protocol === 'https:',
  });
}

function browserKeyOf(req: IncomingMessage, uid: string): string | undefined {
  return parseCookie(req.headers.cookie ?? '')[`meridian_upstream_${uid}`];
}

/**
 * The sign-in step of an interaction when people sign in at the organization's issuer: the
 * browser goes there (no password form here), holding the cookie its answer must come back with.
 * A problem reaching the issuer is a page, not a 500.
 */
export async function sendToUpstream(
  deps: UpstreamRouteDeps,
  uid: string,
  res: ServerResponse,
): Promise<void> {
  let started: { location: URL; browserKey: string };
  try {
    started = await deps.upstream.start(uid);
  } catch (error) {
    deps.logger.error('oauth upstream discovery failed', { error });
    return send(
      res,
      502,
      'Sign-in unavailable',
      `Your organization's sign-in at ${deps.upstream.issuerHost} cannot be reached. Try again in a moment from your app.`,
    );
  }
  res.writeHead(303, {
    location: started.location.href,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    // An array, even of one: on Lambda, serverless-http turns only an array into payload 2.0's `cookies`.
    'set-cookie': [browserKeyCookie(deps.upstream, uid, started.browserKey, deps.upstream.pendingTtlSeconds)],
  });
  res.end();
}

/**
 * `GET /oauth/upstream/callback`: the issuer's answer. Checked (UpstreamSignIn.finish), the person
 * must have been added (`meridian users add … --external`); then the interaction is resumed in the
 * browser that started it (oidc-provider's resume cookie) and the consent page follows, as after
 * a password. Every refusal is a page that says what to do, and a refused sign-in is audited.
 */
export async function handleUpstreamCallback(
  deps: UpstreamRouteDeps,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  try {
    await answerCallback(deps, req, res);
  } catch (error) {
    // A fault here (the store), not the issuer's answer: those are pages above.
    deps.logger.error('oauth upstream callback failed', { error });
    if (!res.headersSent) send(res, 500, 'Something went wrong', 'Try again from your app.');
  }
}

async function answerCallback(deps: UpstreamRouteDeps, req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'GET') return send(res, 405, 'Not found', 'This sign-in page does not exist.');
  const answer = await deps.upstream.finish(new URL(req.url ?? '/', 'http://localhost').searchParams, (uid) =>
    browserKeyOf(req, uid),
  );
  // The sign-in it bound is spent, whatever the answer.
  if (answer.uid) res.setHeader('set-cookie', [browserKeyCookie(deps.upstream, answer.uid, '', 0)]);
  const interaction = answer.uid ? await deps.provider.Interaction.find(answer.uid) : undefined;
  if (!interaction)
    return send(
      res,
      400,
      'Sign-in expired',
      'This sign-in has expired, was finished, or was not started here. Start again from your app.',
    );
  const clientId = String(interaction.params.client_id);
  const person = 'person' in answer ? answer.person : undefined;
  const added = person !== undefined && (await deps.users.exists(person));
  await auditedOauthChange(
    deps,
    {
      action: OAUTH_ACTION.signIn,
      principal: added ? `user:${person}` : 'anonymous',
      client: clientId,
      values: { issuer: deps.upstream.issuerHost },
      resourceIds: [...(person ? [`user:${person}`] : []), clientId],
    },
    async () => added,
    (ok) => (ok ? { outcome: 'ok' } : { outcome: 'refused', code: 'SIGN_IN_REFUSED' }),
  );
  if ('kind' in answer) {
    if (answer.kind === 'other-browser') {
      deps.logger.warn('oauth upstream answer refused', { kind: answer.kind });
      return send(
        res,
        403,
        'Sign-in started elsewhere',
        'This sign-in was started in another browser, so it was not finished. If you did not start it, close this page. Otherwise start again from your app, in this browser.',
      );
    }
    if (answer.kind === 'issuer-error')
      return send(
        res,
        403,
        'Sign-in refused',
        `${deps.upstream.issuerHost} did not sign you in (${answer.error}${answer.description ? `: ${answer.description}` : ''}). Start again from your app, or ask your administrator.`,
      );
    deps.logger.warn('oauth upstream answer refused', {
      kind: answer.kind,
      ...('reason' in answer ? { reason: answer.reason } : {}),
    });
    return send(
      res,
      401,
      'Sign-in not verified',
      `The answer from ${deps.upstream.issuerHost} could not be verified. Start again from your app.`,
    );
  }
  if (!added)
    return send(
      res,
      403,
      'Not added yet',
      `You signed in as ${answer.person}, but Meridian does not know you yet. An administrator must add you: meridian users add ${answer.person} --external (with --aws for a deployment), then grant you calendars or projects. Then start again from your app.`,
    );
  interaction.result = { login: { accountId: answer.person } };
  // As oidc-provider's interactionFinished does, without its cookie: that is scoped to the interaction's path.
  await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
  res.writeHead(303, { location: interaction.returnTo, 'cache-control': 'no-store' });
  res.end();
}
