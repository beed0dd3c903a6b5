import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MsalTokenSource } from '../../lambdas/adapters/outlook/outlook-tokens.js';
import { type FakeGraph, startFakeGraph } from './fake-graph.js';
import { needs, OPENSSL } from './system-parts.js';

/**
 * The fake Graph answers in the shapes of Microsoft's Graph v1.0 reference (event, calendarView,
 * delta, getSchedule, errors): checked here with raw requests, apart from the adapter, so a fake
 * that drifted from the reference cannot pass for the adapter's correctness.
 */
describe('fake Microsoft Graph', needs(OPENSSL), () => {
  let graph: FakeGraph;
  let token: string;
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${graph.root}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${graph.root}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    graph = await startFakeGraph();
    token = await new MsalTokenSource(
      { clientId: graph.identity.clientId, authority: graph.identity.authority },
      graph.identity.issueRefreshToken(),
    ).accessToken();
    const calendar = `/me/calendars/${graph.defaultCalendarId}/events`;
    for (const [subject, start, end, showAs] of [
      ['Busy one', '2026-08-06T09:00:00', '2026-08-06T10:00:00', 'busy'],
      ['Maybe', '2026-08-06T11:00:00', '2026-08-06T11:30:00', 'tentative'],
    ]) {
      await post(calendar, {
        subject,
        showAs,
        start: { dateTime: start, timeZone: 'Pacific Standard Time' },
        end: { dateTime: end, timeZone: 'Pacific Standard Time' },
      });
    }
  });
  afterAll(async () => {
    await graph?.close();
  });

  it('renders event times in the zone of Prefer: outlook.timezone, UTC by default', async () => {
    const window = '?startDateTime=2026-08-06T00:00:00Z&endDateTime=2026-08-07T00:00:00Z';
    const path = `/me/calendars/${graph.defaultCalendarId}/calendarView${window}`;
    const utc = (await (await get(path)).json()) as { value: Record<string, unknown>[] };
    const pacific = (await (
      await get(path, { prefer: 'outlook.timezone="Pacific Standard Time"' })
    ).json()) as typeof utc;

    expect(utc.value[0]).toMatchObject({
      subject: 'Busy one',
      type: 'singleInstance',
      start: { dateTime: '2026-08-06T16:00:00.0000000', timeZone: 'UTC' },
      originalStartTimeZone: 'Pacific Standard Time',
      '@odata.etag': expect.stringMatching(/^W\/"/),
    });
    expect(pacific.value[0]?.start).toEqual({
      dateTime: '2026-08-06T09:00:00.0000000',
      timeZone: 'Pacific Standard Time',
    });
  });

  it('answers getSchedule with an availabilityView of free, tentative and busy slots', async () => {
    const answer = await post(
      '/me/calendar/getSchedule',
      {
        schedules: [graph.email, 'nobody@contoso.com'],
        startTime: { dateTime: '2026-08-06T08:00:00', timeZone: 'Pacific Standard Time' },
        endTime: { dateTime: '2026-08-06T12:00:00', timeZone: 'Pacific Standard Time' },
        availabilityViewInterval: 30,
      },
      { prefer: 'outlook.timezone="Pacific Standard Time"' },
    );
    const body = (await answer.json()) as { value: Record<string, unknown>[] };

    expect(body.value[0]).toMatchObject({
      scheduleId: graph.email,
      availabilityView: '00220010',
      scheduleItems: [
        { status: 'busy', subject: 'Busy one', start: { dateTime: '2026-08-06T09:00:00.0000000' } },
        { status: 'tentative', subject: 'Maybe' },
      ],
    });
    expect(body.value[1]).toMatchObject({
      scheduleId: 'nobody@contoso.com',
      error: { responseCode: 'ErrorMailRecipientNotFound' },
    });
  });

  it("answers Graph's error body: 404 for a missing event, 410 for an expired delta token, 429 with Retry-After", async () => {
    const missing = await get(`/me/calendars/${graph.defaultCalendarId}/events/AAMkADnothing`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'ErrorItemNotFound' } });

    const round = `/me/calendars/${graph.defaultCalendarId}/calendarView/delta?startDateTime=2026-08-01T00:00:00Z&endDateTime=2026-09-01T00:00:00Z`;
    const first = (await (await get(round)).json()) as Record<string, string>;
    graph.expireDeltaTokens('resyncRequired');
    const expired = await fetch(first['@odata.deltaLink']!, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(expired.status).toBe(410);
    expect(await expired.json()).toMatchObject({ error: { code: 'resyncRequired' } });

    graph.injectFaults('throttled', 1, { retryAfterSeconds: 3 });
    const throttled = await get('/me/calendars');
    expect([throttled.status, throttled.headers.get('retry-after')]).toEqual([429, '3']);
    expect((await get('/me/calendars', { authorization: 'Bearer forged' })).status).toBe(401);
  });

  it("records the owner's answer only through accept/decline/tentativelyAccept: 202, no body, responseStatus", async () => {
    const created = (await (
      await post(`/me/calendars/${graph.defaultCalendarId}/events`, {
        subject: 'Answered',
        start: { dateTime: '2026-08-07T09:00:00', timeZone: 'UTC' },
        end: { dateTime: '2026-08-07T10:00:00', timeZone: 'UTC' },
        responseStatus: { response: 'declined' },
        attendees: [{ emailAddress: { address: graph.email }, status: { response: 'declined' } }],
      })
    ).json()) as { id: string; responseStatus: { response: string }; attendees: { status: unknown }[] };
    const event = `/me/events/${created.id}`;

    const refused = await post(`${event}/decline`, { sendResponse: 'no' });
    const answered = await post(`${event}/tentativelyAccept`, { comment: 'maybe', sendResponse: false });
    const read = (await (await get(event)).json()) as { responseStatus: { response: string } };

    expect(created.responseStatus.response).toBe('organizer');
    expect(created.attendees[0]?.status).toEqual({ response: 'none', time: '0001-01-01T00:00:00Z' });
    expect(refused.status).toBe(400);
    expect(answered.status).toBe(202);
    expect(await answered.text()).toBe('');
    expect(read.responseStatus.response).toBe('tentativelyAccepted');
  });
});
