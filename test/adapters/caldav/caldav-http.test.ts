import { describe, expect, it } from 'vitest';
import { guardedFetch } from '../../../lambdas/adapters/caldav/caldav-http.js';

/** A fetch that answers from a script, one entry per call, and records the methods it saw. */
function scripted(...answers: (number | Error)[]) {
  const calls: string[] = [];
  const fetcher = async (_input: string | URL | Request, init?: RequestInit) => {
    calls.push(init?.method ?? 'GET');
    const next = answers.shift();
    if (next === undefined) throw new Error('unexpected extra request');
    if (next instanceof Error) throw next;
    return new Response(next === 204 ? null : 'body', { status: next });
  };
  return { fetcher: fetcher as typeof fetch, calls };
}

const URL_ = 'http://dav.example/alice/work/x.ics';

describe('guardedFetch', () => {
  it('retries an idempotent read once after a 5xx and returns the second answer', async () => {
    const { fetcher, calls } = scripted(503, 200);

    const response = await guardedFetch(fetcher, { retryDelayMs: 0 })(URL_, { method: 'REPORT' });

    expect(response.status).toBe(200);
    expect(calls).toEqual(['REPORT', 'REPORT']);
  });

  it('retries a read once after a network error, then reports PROVIDER_ERROR naming the origin only', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const { fetcher, calls } = scripted(refused, refused);

    const error = await guardedFetch(fetcher, { retryDelayMs: 0 })(URL_, { method: 'GET' }).catch(
      (e: unknown) => e,
    );

    expect(calls).toEqual(['GET', 'GET']);
    expect(error).toMatchObject({ code: 'PROVIDER_ERROR' });
    expect((error as Error).message).toContain('http://dav.example (ECONNREFUSED)');
  });

  it('never retries a write: a 5xx on PUT is one request and PROVIDER_ERROR', async () => {
    const { fetcher, calls } = scripted(502);

    const error = await guardedFetch(fetcher, { retryDelayMs: 0 })(URL_, { method: 'PUT' }).catch(
      (e: unknown) => e,
    );

    expect(calls).toEqual(['PUT']);
    expect(error).toMatchObject({ code: 'PROVIDER_ERROR', details: { status: 502 } });
  });

  it.each([
    [401, 'PROVIDER_AUTH_FAILED'],
    [403, 'PROVIDER_AUTH_FAILED'],
    [404, 'NOT_FOUND'],
    [412, 'STALE_WRITE'],
    [429, 'PROVIDER_RATE_LIMITED'],
    [400, 'PROVIDER_ERROR'],
  ])('maps HTTP %i to %s', async (status, code) => {
    const { fetcher } = scripted(status);

    await expect(
      guardedFetch(fetcher, { retryDelayMs: 0 })(URL_, { method: 'DELETE' }),
    ).rejects.toMatchObject({ code });
  });

  it('passes successes and redirects through untouched', async () => {
    const { fetcher } = scripted(207, 301);
    const guarded = guardedFetch(fetcher);

    expect((await guarded(URL_, { method: 'PROPFIND' })).status).toBe(207);
    expect((await guarded(URL_, { method: 'PROPFIND' })).status).toBe(301);
  });
});
