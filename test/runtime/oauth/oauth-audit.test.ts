import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarResource } from '../../../lambdas/core/access/rights.js';
import type { AuditRecord } from '../../../lambdas/core/audit/audit-record.js';
import { verifyChain } from '../../../lambdas/core/audit/verify-chain.js';
import { connectInMemory, okTool } from '../../support/mcp-client.js';
import {
  authorizeOverHttp,
  HttpSignIn,
  pkcePair,
  redeemCode,
  registerClient,
} from '../../support/oauth-http-flow.js';
import { type ServedSignIn, serveWithSignIn } from '../../support/served-sign-in.js';

/*
 * The sign-in's changes in the audit log, driven over HTTP as a client and a browser without
 * script drive them (test/support/oauth-http-flow.ts): registrations, sign-ins that pass and
 * fail, consents, token revocations and the consents they end — one completed record each, chained.
 */

const ALICE = { name: 'alice', password: 'correct horse battery staple' };
const REDIRECT = 'http://127.0.0.1:9/cb';

let served: ServedSignIn;
let work: string;

beforeAll(async () => {
  served = await serveWithSignIn();
  const owner = await connectInMemory(served.runtime);
  work = (await okTool(owner, 'create_calendar', { summary: 'Work' })).calendar.id;
  await owner.close();
  await served.users.add(ALICE.name, ALICE.password);
  await served.users.setGrant(ALICE.name, calendarResource(work), 'read');
}, 60_000);

afterAll(async () => {
  await served?.close();
});

/** Every record of today's chain, in order. */
async function records(): Promise<AuditRecord[]> {
  const days = await served.audit.days();
  return (await Promise.all(days.map((day) => served.audit.records(day)))).flat();
}

/** The records appended while `act` ran. */
async function recordedBy(act: () => Promise<unknown>): Promise<AuditRecord[]> {
  const before = (await records()).length;
  await act();
  return (await records()).slice(before);
}

describe('the sign-in in the audit log', () => {
  it('records a registration, a refused and an accepted sign-in, and the consent, with the ids they touched', async () => {
    let clientId = '';
    const appended = await recordedBy(async () => {
      clientId = (
        (await (
          await registerClient(served.url, { redirect_uris: [REDIRECT], application_type: 'native' })
        ).json()) as {
          client_id: string;
        }
      ).client_id;
      const browser = new HttpSignIn(served.url);
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        scope: 'toolset:time',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      });
      const page = await browser.follow(await browser.request(`/oauth/authorize?${query}`));
      expect((await browser.submit(page, { username: 'alice', password: 'not her password' })).status).toBe(
        401,
      );
      await authorizeOverHttp(served.url, {
        person: ALICE,
        scope: 'toolset:time',
        resource: served.mcpUrl,
        clientId,
        redirectUri: REDIRECT,
        consent: { toolset: ['time'], [`grant:${work}`]: 'read', approve: 'yes' },
      });
    });

    expect(appended.map((record) => [record.action, record.principal, record.completion?.outcome])).toEqual([
      ['oauth client register', 'anonymous', 'ok'],
      ['oauth sign-in', 'anonymous', 'refused'],
      ['oauth sign-in', 'user:alice', 'ok'],
      ['oauth consent grant', 'user:alice', 'ok'],
    ]);
    const [registered, refused, signedIn, consent] = appended;
    expect(registered?.completion?.output_resource_ids).toEqual([clientId]);
    expect(refused).toMatchObject({
      source: 'oauth',
      client: clientId,
      resource_ids: ['user:alice', clientId],
    });
    expect(refused?.completion?.code).toBe('SIGN_IN_REFUSED');
    expect(signedIn?.resource_ids).toEqual(['user:alice', clientId]);
    expect(consent?.resource_ids).toEqual([clientId, work]);
    const [consentKey] = consent?.completion?.output_resource_ids ?? [];
    expect((await served.runtime.access.listKeys()).find((key) => key.key_id === consentKey)?.label).toBe(
      `oauth: ${clientId} for alice`,
    );
    expect(JSON.stringify(appended)).not.toContain('not her password');
    expect(JSON.stringify(appended)).not.toContain(ALICE.password);
  });

  it('records a registration made at another spelling of the endpoint’s path', async () => {
    let registered = 0;
    const appended = await recordedBy(async () => {
      registered = (
        await registerClient(
          served.url,
          { redirect_uris: [REDIRECT], application_type: 'native' },
          '/oauth/Register/',
        )
      ).status;
    });

    expect(registered).toBe(201);
    expect(appended.map((r) => [r.action, r.completion?.outcome])).toEqual([['oauth client register', 'ok']]);
  });

  it('names no account for a refused sign-in under a name nobody has', async () => {
    const { client_id } = (await (
      await registerClient(served.url, { redirect_uris: [REDIRECT], application_type: 'native' })
    ).json()) as { client_id: string };
    const browser = new HttpSignIn(served.url);
    const query = new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: REDIRECT,
      scope: 'toolset:time',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    });
    const page = await browser.follow(await browser.request(`/oauth/authorize?${query}`));

    const [refused] = await recordedBy(() =>
      browser.submit(page, { username: 'hunter2-typed-in-the-wrong-box', password: 'x' }),
    );

    expect(refused).toMatchObject({
      action: 'oauth sign-in',
      principal: 'anonymous',
      resource_ids: [client_id],
    });
    expect(JSON.stringify(refused)).not.toContain('hunter2');
  });

  it('records a token revocation and the consent it ends; an unknown token leaves nothing', async () => {
    const flow = await authorizeOverHttp(served.url, {
      person: ALICE,
      scope: 'toolset:time',
      resource: served.mcpUrl,
    });
    const tokens = await redeemCode(served.url, flow);
    const revoke = (token: string) =>
      fetch(`${served.url}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, client_id: flow.clientId }),
      });

    const nothing = await recordedBy(() => revoke('not-a-token'));
    const revoked = await recordedBy(async () => {
      expect((await revoke(tokens.refresh_token)).status).toBe(200);
      // The consent is revoked beside the answer (oidc-provider's grant.revoked event).
      await expect.poll(async () => (await records()).at(-1)?.action).toBe('oauth consent revoke');
    });

    expect(nothing).toEqual([]);
    expect(revoked.map((record) => [record.action, record.principal, record.completion?.outcome])).toEqual([
      ['oauth token revoke', `client:${flow.clientId}`, 'ok'],
      ['oauth consent revoke', `client:${flow.clientId}`, 'ok'],
    ]);
    const [tokenRecord, consentRecord] = revoked;
    expect(tokenRecord?.input_values).toEqual({ refresh_token: true });
    const grantId = tokenRecord?.resource_ids[1];
    expect(consentRecord?.resource_ids[0]).toBe(grantId);
    const consentKey = consentRecord?.resource_ids[1];
    expect(
      (await served.runtime.access.listKeys()).find((key) => key.key_id === consentKey)?.revoked_at,
    ).toBeDefined();
    expect(JSON.stringify(revoked)).not.toContain(tokens.refresh_token);
  });

  it('leaves a chain that verifies, with nothing pending', async () => {
    for (const day of await served.audit.days()) {
      const verdict = verifyChain(day, await served.audit.records(day));
      expect(verdict.problems).toEqual([]);
      expect(verdict.pending).toEqual([]);
    }
  });
});
