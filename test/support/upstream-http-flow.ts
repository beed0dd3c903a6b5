import { HttpSignIn, pkcePair, registerClient } from './oauth-http-flow.js';

/** A sign-in at Meridian that went to the organization's issuer: the browser's jar, and where it was sent. */
export interface UpstreamBound {
  /** The browser's cookies at Meridian. */
  meridian: HttpSignIn;
  /** The issuer's authorization URL Meridian sent the browser to (its `state`, `nonce`, PKCE challenge). */
  atIssuer: URL;
  /** Meridian's answer that sent the browser there (its cookies). */
  sentToIssuer: Response;
}

/**
 * The first half of a sign-in as a browser without script runs it: a client registers at
 * Meridian and asks to authorize; Meridian answers with a redirect to the issuer.
 */
export async function beginUpstreamSignIn(baseUrl: string, scope = 'toolset:time'): Promise<UpstreamBound> {
  const redirectUri = 'http://127.0.0.1:9/callback';
  const registered = (await (
    await registerClient(baseUrl, {
      client_name: 'Upstream test',
      redirect_uris: [redirectUri],
      application_type: 'native',
    })
  ).json()) as { client_id: string };
  const meridian = new HttpSignIn(baseUrl);
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: registered.client_id,
    redirect_uri: redirectUri,
    scope,
    resource: `${baseUrl}/mcp`,
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    state: 'client-state',
  });
  const sent = await meridian.follow(await meridian.request(`/oauth/authorize?${query}`));
  const location = sent.headers.get('location');
  if (sent.status !== 303 || !location)
    throw new Error(`not sent to the issuer: ${sent.status} ${await sent.text()}`);
  return { meridian, atIssuer: new URL(location), sentToIssuer: sent };
}

/** The person at the issuer's page: signs in as `login` (or cancels); answers the callback URL back to Meridian. */
export async function answerAtIssuer(atIssuer: URL, login: string | 'cancel', password = ''): Promise<URL> {
  const issuer = new HttpSignIn(atIssuer.origin);
  const signInPage = await issuer.follow(await issuer.request(atIssuer.href));
  const fields: Record<string, string> =
    login === 'cancel' ? { cancel: '' } : { login, password, sign_in: '' };
  const done = await issuer.follow(await issuer.submit(signInPage, fields));
  const location = done.headers.get('location');
  if (!location)
    throw new Error(`the issuer did not send the browser back: ${done.status} ${await done.text()}`);
  return new URL(location);
}
