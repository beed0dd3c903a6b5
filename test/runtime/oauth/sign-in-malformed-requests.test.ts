import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exchangeRaw } from '../../support/raw-http.js';
import { type ServedSignIn, serveWithSignIn } from '../../support/served-sign-in.js';

/*
 * With the sign-in in front (`meridian serve` with OAuth: oauthIntercept runs before the Web
 * Request path), input the caller can fix is answered 4xx as the server without sign-in answers
 * it, never as a server fault (500, logged as an error).
 */

let served: ServedSignIn;
let errorLog: ReturnType<typeof vi.spyOn>;

beforeAll(async () => {
  served = await serveWithSignIn();
  // serveWithSignIn logs the intercept's and the interaction's faults with console.error.
  errorLog = vi.spyOn(console, 'error').mockImplementation(() => undefined);
}, 60_000);

afterAll(async () => {
  errorLog?.mockRestore();
  await served?.close();
});

function statusOf(received: string): number {
  return Number(/^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1]);
}

describe('meridian serve with sign-in: requests the caller can fix', () => {
  it('answers a request target that is no URL with 400, as the server without sign-in does', async () => {
    errorLog.mockClear();
    const received = await exchangeRaw(
      served.url,
      'GET //% HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );

    expect({ status: statusOf(received), faultsLogged: errorLog.mock.calls.length }).toEqual({
      status: 400,
      faultsLogged: 0,
    });
  });

  it('answers a sign-in form over its size limit with 413, not a server fault', async () => {
    errorLog.mockClear();
    const response = await fetch(`${served.url}/oauth/interaction/some-uid/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `username=a&password=${'p'.repeat(20_000)}`,
    });

    expect({ status: response.status, faultsLogged: errorLog.mock.calls.length }).toEqual({
      status: 413,
      faultsLogged: 0,
    });
  });
});
