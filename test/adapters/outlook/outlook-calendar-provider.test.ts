import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDraft } from '../../../lambdas/core/calendar/event.js';
import type { CalendarRef } from '../../../lambdas/core/ports/index.js';
import { needs, OPENSSL } from '../../support/system-parts.js';
import { type OutlookFixture, startOutlookFixture } from './outlook-fixture.js';

const ZONE = 'America/New_York';
const draft = (summary: string, extra: Partial<EventDraft> = {}): EventDraft => ({
  summary,
  start: { date_time: '2026-05-04T09:00:00-04:00', time_zone: ZONE },
  end: { date_time: '2026-05-04T10:00:00-04:00', time_zone: ZONE },
  ...extra,
});

/** What the shared contract does not cover: Graph's own shapes, failures and boundaries. One fake for the file. */
describe('OutlookCalendarProvider', needs(OPENSSL), () => {
  let fixture: OutlookFixture;
  let calendar: CalendarRef;

  beforeAll(async () => {
    fixture = await startOutlookFixture({ maxAttempts: 3 });
    calendar = fixture.primary;
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('lists the mailbox calendars with the default one primary, and a created one', async () => {
    const created = await fixture.provider.createCalendar({ name: 'Projects', time_zone: 'Europe/Paris' });

    const calendars = await fixture.provider.listCalendars();

    expect(calendars.map((c) => [c.name, c.primary, c.access_role])).toEqual([
      ['Calendar', true, 'owner'],
      ['Projects', false, 'owner'],
    ]);
    expect(created).toMatchObject({ name: 'Projects', time_zone: 'Europe/Paris', primary: false });
  });

  it('writes times as a Windows zone wall clock and reads them back in the IANA zone', async () => {
    const created = await fixture.provider.createEvent(calendar, draft('Zones'));

    const stored = fixture.graph.store.calendar(fixture.graph.defaultCalendarId).events.get(created.id);
    expect(stored?.fields.start).toEqual({
      dateTime: '2026-05-04T09:00:00',
      timeZone: 'Eastern Standard Time',
    });
    expect(created.start).toEqual({ date_time: '2026-05-04T09:00:00-04:00', time_zone: ZONE });
    expect(fixture.graph.requests.at(-1)?.prefer).toContain('outlook.timezone="UTC"');
  });

  it('maps attendees and their responses both ways', async () => {
    const created = await fixture.provider.createEvent(
      calendar,
      draft('Meeting', {
        attendees: [
          { email: 'bob@contoso.com', display_name: 'Bob', response_status: 'needsAction' },
          { email: 'eve@contoso.com', response_status: 'needsAction', optional: true },
        ],
      }),
    );
    const stored = fixture.graph.store.calendar(fixture.graph.defaultCalendarId).events.get(created.id)!;
    stored.fields.attendees = (stored.fields.attendees as Record<string, unknown>[]).map((a, i) => ({
      ...a,
      status: { response: i === 0 ? 'accepted' : 'tentativelyAccepted', time: '2026-05-01T10:00:00Z' },
    }));

    const read = await fixture.provider.getEvent(calendar, created.id);

    expect(stored.fields.attendees).toMatchObject([
      { type: 'required', emailAddress: { address: 'bob@contoso.com', name: 'Bob' } },
      { type: 'optional', emailAddress: { address: 'eve@contoso.com' } },
    ]);
    expect(read.attendees).toEqual([
      { email: 'bob@contoso.com', display_name: 'Bob', response_status: 'accepted' },
      { email: 'eve@contoso.com', response_status: 'tentative', optional: true },
    ]);
    expect(read.organizer).toEqual({ email: fixture.graph.email, display_name: 'Alice' });
  });

  it('refuses a recurrence Graph cannot store, writing nothing', async () => {
    const before = fixture.graph.store.calendar(fixture.graph.defaultCalendarId).events.size;

    await expect(
      fixture.provider.createEvent(
        calendar,
        draft('Pings', { recurrence: ['RRULE:FREQ=HOURLY;INTERVAL=5'] }),
      ),
    ).rejects.toMatchObject({ code: 'INVALID_RRULE' });
    expect(fixture.graph.store.calendar(fixture.graph.defaultCalendarId).events.size).toBe(before);
  });

  it('refreshes the access token once when Graph refuses it, then succeeds', async () => {
    const issued = fixture.graph.identity.issuedAccessTokens;
    fixture.graph.injectFaults('unauthorized', 1);

    await fixture.provider.listCalendars();

    expect(fixture.graph.identity.issuedAccessTokens).toBe(issued + 1);
  });

  it('retries 503 answers and gives up with PROVIDER_ERROR after its attempts', async () => {
    fixture.graph.injectFaults('unavailable', 2, { retryAfterSeconds: 2 });
    await expect(fixture.provider.listCalendars()).resolves.toHaveLength(2);
    expect(fixture.pauses.slice(-2)).toEqual([2000, 2000]);

    fixture.graph.injectFaults('serverError', 3);
    await expect(fixture.provider.listCalendars()).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
  });

  it('answers NOT_FOUND for an event of another calendar, and refuses a calendar of another connection', async () => {
    const other = fixture.provider.calendarRef((await fixture.provider.listCalendars())[1]!);
    const event = await fixture.provider.createEvent(other, draft('Elsewhere'));

    await expect(fixture.provider.getEvent(calendar, event.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(fixture.provider.deleteEvent(calendar, event.id, { scope: 'this' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      fixture.provider.getEvent(
        { ...calendar, calendar_id: `outlook/another/${calendar.native_id}` },
        event.id,
      ),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect((await fixture.provider.getEvent(other, event.id)).summary).toBe('Elsewhere');
  });

  it('refuses a page token it did not hand out', async () => {
    await expect(
      fixture.provider.listEvents(calendar, {
        start: '2026-05-01T00:00:00Z',
        end: '2026-05-31T00:00:00Z',
        single_events: true,
        max_results: 10,
        page_token: 'https://attacker.example/steal',
      }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('answers PROVIDER_AUTH_FAILED saying what a person must do once the sign-in is revoked', async () => {
    fixture.graph.identity.revokeAll();

    const failure = fixture.provider.listEvents(calendar, {
      start: '2026-05-01T00:00:00Z',
      end: '2026-05-31T00:00:00Z',
      single_events: true,
      max_results: 10,
    });

    await expect(failure).rejects.toMatchObject({
      code: 'PROVIDER_AUTH_FAILED',
      message: expect.stringMatching(
        /sign in to Microsoft again: run `npx meridian connect outlook --key KEY_ID`/,
      ),
    });
  });
});
