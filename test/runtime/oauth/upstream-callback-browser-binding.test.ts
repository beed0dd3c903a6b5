import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpSignIn } from '../../support/oauth-http-flow.js';
import { type ServedSignIn, serveWithSignIn } from '../../support/served-sign-in.js';
import { answerAtIssuer, beginUpstreamSignIn } from '../../support/upstream-http-flow.js';
import { MERIDIAN_CLIENT, startUpstreamIssuer, type UpstreamIssuer } from '../../support/upstream-issuer.js';

/*
 * A sign-in at the organization's issuer is finished only in the browser that started it. Without
 * that, an attacker starts a sign-in for their own client, gets someone to open the issuer's URL
 * (with single sign-on, one click), and their own browser — holding the interaction's resume
 * cookie — is then shown the consent page as that person and collects a code for its client.
 */

const PASSWORD = 'issuer password';
const ACCOUNTS = { 'u-alice': { password: PASSWORD, email: 'alice@example.com', email_verified: true } };

let issuer: UpstreamIssuer;
let served: ServedSignIn;

beforeAll(async () => {
  issuer = await startUpstreamIssuer(ACCOUNTS);
  served = await serveWithSignIn({
    registrationLimit: { perWindow: 100, windowMs: 60_000 },
    upstream: { issuer: issuer.issuer, clientId: MERIDIAN_CLIENT.id, clientSecret: MERIDIAN_CLIENT.secret },
  });
  issuer.register(`${served.url}/oauth/upstream/callback`);
  await served.users.add('alice@example.com', undefined);
}, 60_000);

afterAll(async () => {
  await served?.close();
  await issuer?.close();
});

describe('the issuer’s answer brought back by another browser', () => {
  it('is refused with a page, and the starting browser is not signed in as the person who answered', async () => {
    const attacker = await beginUpstreamSignIn(served.url);
    const callback = await answerAtIssuer(attacker.atIssuer, 'u-alice', PASSWORD);
    // The person's browser has no Meridian cookie at all.
    const victim = new HttpSignIn(served.url);
    const atCallback = await victim.request(callback.href);
    const page = await atCallback.text();
    expect(atCallback.status).toBe(403);
    expect(page).toContain('started in another browser');

    // The attacker's browser tries to resume the interaction anyway: no consent as alice, no code.
    const resumed = await attacker.meridian.follow(await attacker.meridian.request(callback.href));
    const html = await resumed.text();
    expect(html).not.toContain('alice@example.com');
    expect(resumed.headers.get('location') ?? '').not.toContain('code=');
    const latest = (await served.audit.records((await served.audit.days()).at(-1)!)).at(-1);
    expect(latest).toMatchObject({
      action: 'oauth sign-in',
      principal: 'anonymous',
      completion: { outcome: 'refused', code: 'SIGN_IN_REFUSED' },
    });
  });
});

describe('the browser that started the sign-in', () => {
  it('holds the binding in an HttpOnly cookie sent only to the callback, and finishes the sign-in', async () => {
    const started = await beginUpstreamSignIn(served.url);
    const setCookie = started.sentToIssuer.headers
      .getSetCookie()
      .find((c) => c.startsWith('meridian_upstream_'));
    expect(setCookie).toMatch(/; Path=\/oauth\/upstream\/callback/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);

    const callback = await answerAtIssuer(started.atIssuer, 'u-alice', PASSWORD);
    const consent = await started.meridian.follow(await started.meridian.request(callback.href));
    expect(await consent.text()).toContain('Signed in as <strong>alice@example.com</strong>');
  });
});
