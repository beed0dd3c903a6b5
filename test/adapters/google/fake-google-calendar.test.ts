import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGoogleCalendar, startFakeGoogleCalendar } from '../../support/fake-google-calendar.js';

/** The fake's own Google behaviours that the adapter tests rely on, checked over raw HTTP. */
describe('startFakeGoogleCalendar', () => {
  let google: FakeGoogleCalendar;
  let token: string;

  beforeEach(async () => {
    google = await startFakeGoogleCalendar();
    const answer = await fetch(google.tokenUrl, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: google.oauth.issueRefreshToken(),
        client_id: google.clientId,
        client_secret: google.clientSecret,
      }),
    });
    token = ((await answer.json()) as { access_token: string }).access_token;
  });
  afterEach(async () => {
    await google.close();
  });

  const api = (path: string, init: RequestInit & { auth?: string } = {}) =>
    fetch(new URL(`calendar/v3${path}`, google.rootUrl), {
      ...init,
      headers: {
        authorization: `Bearer ${init.auth ?? token}`,
        'content-type': 'application/json',
        ...init.headers,
      },
    });
  const events = '/calendars/primary/events';
  const timed = {
    start: { dateTime: '2026-03-10T09:00:00-04:00' },
    end: { dateTime: '2026-03-10T10:00:00-04:00' },
  };

  it('answers 401 in Google’s error shape to a token it did not issue', async () => {
    const answer = await api('/users/me/calendarList', { auth: 'ya29.forged' });

    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ error: { code: 401, errors: [{ reason: 'authError' }] } });
  });

  it('changes the etag on every write and answers 412 to a stale If-Match', async () => {
    const created = (await (await api(events, { method: 'POST', body: JSON.stringify(timed) })).json()) as {
      id: string;
      etag: string;
    };
    const patched = await api(`${events}/${created.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ summary: 'x' }),
      headers: { 'if-match': created.etag },
    });
    const stale = await api(`${events}/${created.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ summary: 'y' }),
      headers: { 'if-match': created.etag },
    });

    expect(((await patched.json()) as { etag: string }).etag).not.toBe(created.etag);
    expect(stale.status).toBe(412);
  });

  it('refuses orderBy=startTime without singleEvents, and a sync token with a time window', async () => {
    const ordered = await api(`${events}?orderBy=startTime`);
    const windowed = await api(`${events}?syncToken=abc&timeMin=2026-01-01T00:00:00Z`);

    expect([ordered.status, windowed.status]).toEqual([400, 400]);
  });

  it('answers 410 fullSyncRequired once sync tokens are invalidated', async () => {
    const first = (await (await api(events)).json()) as { nextSyncToken: string };
    google.invalidateSyncTokens();

    const answer = await api(`${events}?syncToken=${first.nextSyncToken}`);

    expect(answer.status).toBe(410);
    expect(await answer.json()).toMatchObject({ error: { errors: [{ reason: 'fullSyncRequired' }] } });
  });

  it('answers 409 to an insert that reuses an id, and 410 to deleting twice', async () => {
    const body = JSON.stringify({ ...timed, id: 'abcdefghij' });
    await api(events, { method: 'POST', body });

    const duplicate = await api(events, { method: 'POST', body });
    await api(`${events}/abcdefghij`, { method: 'DELETE' });
    const again = await api(`${events}/abcdefghij`, { method: 'DELETE' });

    expect([duplicate.status, again.status]).toEqual([409, 410]);
  });

  it('refuses a PKCE verifier that does not match the challenge', async () => {
    const consent = new URL(google.authUrl);
    consent.search = new URLSearchParams({
      client_id: google.clientId,
      redirect_uri: 'http://127.0.0.1:9/cb',
      response_type: 'code',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      state: 's',
    }).toString();
    const redirect = new URL((await fetch(consent, { redirect: 'manual' })).headers.get('location') ?? '');

    const answer = await fetch(google.tokenUrl, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: redirect.searchParams.get('code') ?? '',
        code_verifier: 'not-the-verifier',
        redirect_uri: 'http://127.0.0.1:9/cb',
        client_id: google.clientId,
        client_secret: google.clientSecret,
      }),
    });

    expect(redirect.searchParams.get('state')).toBe('s');
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: 'invalid_grant' });
  });
});
