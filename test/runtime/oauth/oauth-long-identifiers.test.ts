import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerClient } from '../../support/oauth-http-flow.js';
import { type ServedSignIn, serveWithSignIn } from '../../support/served-sign-in.js';
import { MERIDIAN_CLIENT, startUpstreamIssuer, type UpstreamIssuer } from '../../support/upstream-issuer.js';

/*
 * Codes, tokens, client ids and states come from anyone, at any length. One longer than the table
 * can hold as a key (2,048 bytes) is unknown, like a short unknown one: a 4xx for the caller and
 * nothing in the log — not a 500 and an error line telling the operator the data store failed.
 */

const LONG = 'A'.repeat(3000);

let served: ServedSignIn;
let issuer: UpstreamIssuer;
let clientId: string;
let errorLog: ReturnType<typeof vi.spyOn>;

beforeAll(async () => {
  issuer = await startUpstreamIssuer({});
  served = await serveWithSignIn({
    upstream: { issuer: issuer.issuer, clientId: MERIDIAN_CLIENT.id, clientSecret: MERIDIAN_CLIENT.secret },
  });
  clientId = (
    (await (
      await registerClient(served.url, {
        redirect_uris: ['http://127.0.0.1:9/callback'],
        application_type: 'native',
      })
    ).json()) as { client_id: string }
  ).client_id;
  // serveWithSignIn's logger writes the authorization server's faults with console.error.
  errorLog = vi.spyOn(console, 'error').mockImplementation(() => undefined);
}, 60_000);

afterAll(async () => {
  errorLog?.mockRestore();
  await served?.close();
  await issuer?.close();
});

function form(path: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${served.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
}

const REQUESTS: [string, () => Promise<Response>][] = [
  [
    'a code redeemed at /oauth/token',
    () =>
      form('/oauth/token', {
        grant_type: 'authorization_code',
        code: LONG,
        client_id: clientId,
        redirect_uri: 'http://127.0.0.1:9/callback',
        code_verifier: 'v'.repeat(43),
      }),
  ],
  [
    'a refresh token at /oauth/token',
    () => form('/oauth/token', { grant_type: 'refresh_token', refresh_token: LONG, client_id: clientId }),
  ],
  ['a token at /oauth/revoke', () => form('/oauth/revoke', { token: LONG, client_id: clientId })],
  [
    'a client_id at /oauth/token',
    () => form('/oauth/token', { grant_type: 'refresh_token', refresh_token: 'x', client_id: LONG }),
  ],
  [
    'a client_id at /oauth/authorize',
    () => fetch(`${served.url}/oauth/authorize?client_id=${LONG}&response_type=code`, { redirect: 'manual' }),
  ],
  [
    'a state at /oauth/upstream/callback',
    () => fetch(`${served.url}/oauth/upstream/callback?state=${LONG}.x&code=c`, { redirect: 'manual' }),
  ],
];

describe('an over-long identifier from a caller with no client and no token', () => {
  it.each(REQUESTS)('is refused as unknown, not answered as a server fault: %s', async (name, send) => {
    errorLog.mockClear();

    const response = await send();

    expect({
      // RFC 7009 §2.2: revoking a token the server does not know is answered 200.
      answered:
        response.status === 200 ? 'ok' : response.status >= 400 && response.status < 500 ? '4xx' : 'fault',
      faultsLogged: errorLog.mock.calls.length,
    }).toEqual({ answered: name.includes('/oauth/revoke') ? 'ok' : '4xx', faultsLogged: 0 });
  });
});
