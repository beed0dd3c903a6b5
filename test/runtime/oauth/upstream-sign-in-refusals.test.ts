import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpSignIn } from '../../support/oauth-http-flow.js';
import { type ServedSignIn, serveWithSignIn } from '../../support/served-sign-in.js';
import { answerAtIssuer, beginUpstreamSignIn } from '../../support/upstream-http-flow.js';
import {
  MERIDIAN_CLIENT,
  PUBLIC_CLIENT,
  startUpstreamIssuer,
  type UpstreamIssuer,
} from '../../support/upstream-issuer.js';

/*
 * Signing in at the organization's issuer (a real second oidc-provider, configured as Cognito
 * is): what comes back to Meridian's callback, and what Meridian answers, at the transport. Each
 * refusal is a page that says what to do, never a 500, and never the consent page.
 */

const PASSWORD = 'issuer password';
const ACCOUNTS = {
  'u-alice': { password: PASSWORD, email: 'Alice@Example.com', email_verified: true },
  'u-mallory': { password: PASSWORD, email: 'alice@example.com', email_verified: false },
  'u-bob': { password: PASSWORD, email: 'bob@example.com', email_verified: true },
};

/** Seconds the test clock is ahead: moves a sign-in past its interaction's life. */
let skewSeconds = 0;
const clock = { now: () => new Date(Date.now() + skewSeconds * 1000) };

let issuer: UpstreamIssuer;
/** Another issuer with the same signing key and clients: only `iss` tells its tokens apart. */
let otherIssuer: UpstreamIssuer;
let served: ServedSignIn;

beforeAll(async () => {
  [issuer, otherIssuer] = await Promise.all([startUpstreamIssuer(ACCOUNTS), startUpstreamIssuer(ACCOUNTS)]);
  served = await serveWithSignIn({
    clock,
    registrationLimit: { perWindow: 100, windowMs: 60_000 },
    upstream: { issuer: issuer.issuer, clientId: MERIDIAN_CLIENT.id, clientSecret: MERIDIAN_CLIENT.secret },
  });
  issuer.register(`${served.url}/oauth/upstream/callback`);
  otherIssuer.register(`${served.url}/oauth/upstream/callback`);
  await served.users.add('alice@example.com', undefined);
  await served.users.add('pat', 'a password that must not work');
}, 60_000);

afterAll(async () => {
  await served?.close();
  await issuer?.close();
  await otherIssuer?.close();
});

/** Meridian's answer to the browser arriving at `callback`, redirects on Meridian followed. */
async function arrive(bound: Awaited<ReturnType<typeof beginUpstreamSignIn>>, callback: URL) {
  const response = await bound.meridian.follow(await bound.meridian.request(callback.href));
  return { status: response.status, html: await response.text() };
}

describe('signing in at an issuer that cannot be reached', () => {
  it('answers a page, not a 500', async () => {
    // A port that was free a moment ago: nothing answers there.
    const gone = createServer();
    await new Promise<void>((resolvePromise) => gone.listen(0, '127.0.0.1', resolvePromise));
    const { port } = gone.address() as AddressInfo;
    await new Promise((resolvePromise) => gone.close(resolvePromise));
    const closed = await serveWithSignIn({
      upstream: { issuer: `http://127.0.0.1:${port}`, clientId: MERIDIAN_CLIENT.id },
    });
    try {
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: 'preregistered',
        redirect_uri: 'http://127.0.0.1:9/callback',
        scope: 'toolset:time',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      });
      await closed.oauth.registerClient({
        client_id: 'preregistered',
        application_type: 'native',
        redirect_uris: ['http://127.0.0.1:9/callback'],
        token_endpoint_auth_method: 'none',
      });
      const browser = new HttpSignIn(closed.url);

      const response = await browser.follow(await browser.request(`/oauth/authorize?${query}`));

      expect(response.status).toBe(502);
      expect(await response.text()).toContain('cannot be reached');
    } finally {
      await closed.close();
    }
  });
});

describe('signing in at the organization issuer', () => {
  it('sends the browser to the issuer with PKCE S256, state and nonce, and shows no password form', async () => {
    const bound = await beginUpstreamSignIn(served.url);

    expect(bound.atIssuer.origin).toBe(issuer.issuer);
    expect(bound.atIssuer.searchParams.get('redirect_uri')).toBe(`${served.url}/oauth/upstream/callback`);
    expect(bound.atIssuer.searchParams.get('code_challenge_method')).toBe('S256');
    expect(bound.atIssuer.searchParams.get('nonce')).toBeTruthy();
    expect(bound.atIssuer.searchParams.get('state')).toBeTruthy();
  });

  it('refuses a password posted by hand to the sign-in step, though the form token is right', async () => {
    const bound = await beginUpstreamSignIn(served.url);
    const [uid] = bound.atIssuer.searchParams.get('state')!.split('.');
    // The token the password form would carry (interaction-routes.ts), had one been shown.
    const csrf = createHmac('sha256', served.keys.csrfKey).update(`interaction:${uid}`).digest('base64url');

    const response = await bound.meridian.request(`/oauth/interaction/${uid}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, username: 'pat', password: 'a password that must not work' }),
    });

    expect(response.status).toBe(403);
    expect(response.headers.get('location')).toBeNull();
  });

  it('takes a verified email as the person and goes on to the consent page', async () => {
    const bound = await beginUpstreamSignIn(served.url);
    const callback = await answerAtIssuer(bound.atIssuer, 'u-alice', PASSWORD);

    const answer = await arrive(bound, callback);

    expect(answer.status).toBe(200);
    expect(answer.html).toContain('name="approve"');
    expect(answer.html).toContain('Signed in as <strong>alice@example.com</strong>');
  });

  it('refuses a callback whose state was not sent for that sign-in, and still takes the right one', async () => {
    const first = await beginUpstreamSignIn(served.url);
    const second = await beginUpstreamSignIn(served.url);
    const callback = await answerAtIssuer(first.atIssuer, 'u-alice', PASSWORD);
    const forged = new URL(callback);
    // The first sign-in's answer, presented as the second's: its state names the other interaction.
    const [, random] = callback.searchParams.get('state')!.split('.');
    const [otherUid] = second.atIssuer.searchParams.get('state')!.split('.');
    forged.searchParams.set('state', `${otherUid}.${random}`);

    const refused = await arrive(second, forged);
    const taken = await arrive(first, callback);

    expect(refused.status).toBe(400);
    expect(refused.html).toContain('Start again from your app');
    expect(taken.status).toBe(200);
    expect(taken.html).toContain('name="approve"');
  });

  it('refuses a callback replayed while the first one is still finishing the sign-in', async () => {
    const bound = await beginUpstreamSignIn(served.url);
    const callback = await answerAtIssuer(bound.atIssuer, 'u-alice', PASSWORD);
    const first = await bound.meridian.request(callback.href);
    expect(first.status).toBe(303);

    const replayed = await arrive(bound, callback);
    const continued = await bound.meridian.follow(first);

    expect(replayed.status).toBe(400);
    expect(replayed.html).not.toContain('name="approve"');
    expect(continued.status).toBe(200);
    expect(await continued.text()).toContain('name="approve"');
  });

  it('refuses an ID token from another issuer, though its signature, audience and nonce fit', async () => {
    const bound = await beginUpstreamSignIn(served.url);
    issuer.substituteNextIdToken(
      await otherIssuer.idTokenFor({
        login: 'u-alice',
        clientId: MERIDIAN_CLIENT.id,
        redirectUri: `${served.url}/oauth/upstream/callback`,
        nonce: bound.atIssuer.searchParams.get('nonce')!,
      }),
    );
    const callback = await answerAtIssuer(bound.atIssuer, 'u-alice', PASSWORD);

    const answer = await arrive(bound, callback);

    expect(answer.status).toBe(401);
    expect(answer.html).toContain('could not be verified');
  });

  it('refuses an ID token the issuer gave another app (audience), though issuer and nonce fit', async () => {
    const bound = await beginUpstreamSignIn(served.url);
    issuer.substituteNextIdToken(
      await issuer.idTokenFor({
        login: 'u-alice',
        clientId: PUBLIC_CLIENT.id,
        redirectUri: PUBLIC_CLIENT.redirectUri,
        nonce: bound.atIssuer.searchParams.get('nonce')!,
      }),
    );
    const callback = await answerAtIssuer(bound.atIssuer, 'u-alice', PASSWORD);

    const answer = await arrive(bound, callback);

    expect(answer.status).toBe(401);
    expect(answer.html).toContain('could not be verified');
  });

  it('does not take an unverified email as the person: the issuer-scoped subject is not added', async () => {
    const bound = await beginUpstreamSignIn(served.url);
    const callback = await answerAtIssuer(bound.atIssuer, 'u-mallory', PASSWORD);

    const answer = await arrive(bound, callback);

    const person = `${new URL(issuer.issuer).host}:u-mallory`;
    expect(answer.status).toBe(403);
    expect(answer.html).toContain(`meridian users add ${person} --external`);
    expect(answer.html).not.toContain('alice@example.com');
  });

  it('tells a person who was not added what an administrator must run, and audits the refusal', async () => {
    const bound = await beginUpstreamSignIn(served.url);
    const callback = await answerAtIssuer(bound.atIssuer, 'u-bob', PASSWORD);

    const answer = await arrive(bound, callback);

    expect(answer.status).toBe(403);
    expect(answer.html).toContain(
      'An administrator must add you: meridian users add bob@example.com --external',
    );
    expect(answer.html).not.toContain('name="approve"');
    const latest = (await served.audit.records((await served.audit.days()).at(-1)!)).at(-1);
    expect(latest).toMatchObject({
      action: 'oauth sign-in',
      principal: 'anonymous',
      resource_ids: expect.arrayContaining(['user:bob@example.com']),
      completion: { outcome: 'refused', code: 'SIGN_IN_REFUSED' },
    });
  });

  it('answers a page when the person cancels at the issuer (access_denied)', async () => {
    const bound = await beginUpstreamSignIn(served.url);
    const callback = await answerAtIssuer(bound.atIssuer, 'cancel');
    expect(callback.searchParams.get('error')).toBe('access_denied');

    const answer = await arrive(bound, callback);

    expect(answer.status).toBe(403);
    expect(answer.html).toContain('did not sign you in (access_denied');
  });

  it('answers a page when the sign-in expired before the person came back', async () => {
    const bound = await beginUpstreamSignIn(served.url);
    const callback = await answerAtIssuer(bound.atIssuer, 'u-alice', PASSWORD);
    skewSeconds = 11 * 60;
    try {
      const answer = await arrive(bound, callback);

      expect(answer.status).toBe(400);
      expect(answer.html).toContain('This sign-in has expired');
    } finally {
      skewSeconds = 0;
    }
  });
});
