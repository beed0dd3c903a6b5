import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalendarEvent, EventDraft } from '../../../lambdas/core/calendar/event.js';
import { fixedClock } from '../../../lambdas/core/ports/index.js';
import { type RadicaleServer, startRadicale } from '../../support/radicale.js';
import { needs, RADICALE } from '../../support/system-parts.js';
import { freshCalendar, PASSWORD, providerFor, rawGet, rawPut, USER } from './caldav-test-kit.js';

let radicale: RadicaleServer;

/** The server path of a calendar in the test user's home (Radicale homes are `/<user>/`). */
function calendarPath(calendar: { native_id: string }): string {
  return `/${encodeURIComponent(USER)}/${calendar.native_id}/`;
}

beforeAll(async () => {
  radicale = await startRadicale({ [USER]: PASSWORD, 'bob@example.com': 'bobs password' });
});

afterAll(async () => {
  await radicale?.stop();
});

const timed: EventDraft = {
  summary: 'Design review',
  description: 'Agenda:\n1. scope; 2. dates, owners',
  location: 'Room 4, Building B',
  start: { date_time: '2026-03-10T09:00:00-04:00', time_zone: 'America/New_York' },
  end: { date_time: '2026-03-10T10:30:00-04:00', time_zone: 'America/New_York' },
  status: 'tentative',
  transparency: 'transparent',
  visibility: 'confidential',
  attendees: [
    { email: 'bob@example.com', display_name: 'Bob, Jr.', response_status: 'accepted', optional: true },
    { email: 'carol@example.com', response_status: 'needsAction' },
  ],
  reminders: {
    use_default: false,
    overrides: [
      { method: 'popup', minutes: 10 },
      { method: 'email', minutes: 1440 },
    ],
  },
  color_id: '7',
};

function window(start: string, end: string) {
  return { start, end, single_events: true, max_results: 50 };
}

describe('CalDavCalendarProvider', needs(RADICALE), () => {
  describe('listCalendars / createCalendar', () => {
    it('creates a calendar with name, description and zone and lists it back', async () => {
      const provider = providerFor(radicale, { newId: () => 'team-calendar' });

      const created = await provider.createCalendar({
        name: 'Team',
        description: 'Shared plans',
        time_zone: 'Europe/Paris',
      });
      const listed = await provider.listCalendars();

      const expected = {
        native_id: 'team-calendar',
        name: 'Team',
        description: 'Shared plans',
        time_zone: 'Europe/Paris',
        primary: false,
        access_role: 'owner',
      };
      expect(created).toEqual(expected);
      expect(listed).toContainEqual(expected);
      expect(provider.calendarRef(created)).toEqual({
        native_id: 'team-calendar',
        calendar_id: 'caldav/conn1/team-calendar',
        time_zone: 'Europe/Paris',
      });
    });

    it('stores the calendar timezone as a VCALENDAR with a VTIMEZONE', async () => {
      const provider = providerFor(radicale, { newId: () => 'tz-calendar' });
      await provider.createCalendar({ name: 'TZ', time_zone: 'America/New_York' });

      const response = await fetch(new URL(`/${USER}/tz-calendar/`, radicale.url), {
        method: 'PROPFIND',
        headers: {
          Authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`,
          Depth: '0',
        },
        body: '<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><c:calendar-timezone/></d:prop></d:propfind>',
      });
      const body = await response.text();

      expect(body).toContain('TZID:America/New_York');
      expect(body).toContain('RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU');
    });

    it('lists only the calendars of the connected account', async () => {
      const bob = providerFor(radicale, {
        username: 'bob@example.com',
        password: 'bobs password',
        newId: () => 'bobs',
      });
      await bob.createCalendar({ name: 'Bob only' });

      const alices = await providerFor(radicale).listCalendars();

      expect(alices.map((c) => c.name)).not.toContain('Bob only');
      expect((await bob.listCalendars()).map((c) => c.name)).toEqual(['Bob only']);
    });

    it('refuses an unknown zone with INVALID_TIMEZONE before creating anything', async () => {
      await expect(
        providerFor(radicale).createCalendar({ name: 'x', time_zone: 'Mars/Olympus' }),
      ).rejects.toMatchObject({
        code: 'INVALID_TIMEZONE',
      });
    });
  });

  describe('event round trip', () => {
    it('creates a timed event with attendees, reminders, colour and reads every field back', async () => {
      const provider = providerFor(radicale, {
        newId: () => 'evt-timed',
        clock: fixedClock('2026-02-01T12:00:00Z'),
      });
      const calendar = await calendarNamed('rt-timed');

      const created = await provider.createEvent(calendar, timed);
      const fetched = await provider.getEvent(calendar, 'evt-timed');

      const expected: Partial<CalendarEvent> = {
        id: 'evt-timed',
        calendar_id: calendar.calendar_id,
        summary: 'Design review',
        description: 'Agenda:\n1. scope; 2. dates, owners',
        location: 'Room 4, Building B',
        start: { date_time: '2026-03-10T09:00:00-04:00', time_zone: 'America/New_York' },
        end: { date_time: '2026-03-10T10:30:00-04:00', time_zone: 'America/New_York' },
        status: 'tentative',
        transparency: 'transparent',
        visibility: 'confidential',
        attendees: timed.attendees!,
        organizer: { email: USER },
        reminders: timed.reminders!,
        color_id: '7',
        created: '2026-02-01T12:00:00+00:00',
        updated: '2026-02-01T12:00:00+00:00',
      };
      expect(created).toMatchObject(expected);
      expect(fetched).toEqual(created);
      expect(created.etag).toMatch(/^".+"$/);
    });

    it('stores standard iCalendar other clients read: TZID with VTIMEZONE, ATTENDEE params, VALARM, CLASS', async () => {
      const provider = providerFor(radicale, { newId: () => 'evt-raw' });
      const calendar = await calendarNamed('rt-raw');
      await provider.createEvent(calendar, timed);

      const ics = (await (await rawGet(radicale, `${calendarPath(calendar)}evt-raw.ics`)).text()).replace(
        /\r\n[ \t]/g,
        '',
      );

      expect(ics).toContain('DTSTART;TZID=America/New_York:20260310T090000');
      expect(ics).toContain('DTEND;TZID=America/New_York:20260310T103000');
      expect(ics).toMatch(/BEGIN:VTIMEZONE\r\nTZID:America\/New_York/);
      expect(ics).toContain(
        'ATTENDEE;CN="Bob, Jr.";PARTSTAT=ACCEPTED;ROLE=OPT-PARTICIPANT:mailto:bob@example.com',
      );
      expect(ics).toContain('CLASS:CONFIDENTIAL');
      expect(ics).toContain('TRANSP:TRANSPARENT');
      expect(ics).toContain('STATUS:TENTATIVE');
      expect(ics).toContain('TRIGGER:-PT10M');
      expect(ics).toContain('COLOR:deepskyblue');
    });

    it('creates an all-day event as VALUE=DATE with an exclusive end', async () => {
      const provider = providerFor(radicale, { newId: () => 'evt-allday' });
      const calendar = await calendarNamed('rt-allday');

      const created = await provider.createEvent(calendar, {
        summary: 'Offsite',
        start: { date: '2026-03-12' },
        end: { date: '2026-03-14' },
      });
      const ics = await (await rawGet(radicale, `${calendarPath(calendar)}evt-allday.ics`)).text();

      expect(created).toMatchObject({
        start: { date: '2026-03-12' },
        end: { date: '2026-03-14' },
        status: 'confirmed',
        transparency: 'opaque',
        visibility: 'default',
        attendees: [],
      });
      expect(created.reminders).toBeUndefined();
      expect(ics).toContain('DTSTART;VALUE=DATE:20260312');
      expect(ics).toContain('DTEND;VALUE=DATE:20260314');
    });

    it('writes a time without a zone in UTC and reads it back as the same instant', async () => {
      const provider = providerFor(radicale, { newId: () => 'evt-utc' });
      const calendar = await calendarNamed('rt-utc');

      const created = await provider.createEvent(calendar, {
        summary: 'UTC call',
        start: { date_time: '2026-06-01T17:30:00+02:00' },
        end: { date_time: '2026-06-01T18:00:00+02:00' },
      });
      const ics = await (await rawGet(radicale, `${calendarPath(calendar)}evt-utc.ics`)).text();

      expect(ics).toContain('DTSTART:20260601T153000Z');
      expect(created.start).toEqual({ date_time: '2026-06-01T15:30:00+00:00' });
    });

    it('updates only the patched fields and returns the new etag', async () => {
      const provider = providerFor(radicale, { newId: () => 'evt-upd' });
      const calendar = await calendarNamed('rt-upd');
      const created = await provider.createEvent(calendar, timed);

      const updated = await provider.updateEvent(
        calendar,
        'evt-upd',
        {
          summary: 'Design review (moved)',
          attendees: [{ email: 'dave@example.com', response_status: 'declined' }],
        },
        { scope: 'all', if_match: created.etag },
      );

      expect(updated.summary).toBe('Design review (moved)');
      expect(updated.attendees).toEqual([{ email: 'dave@example.com', response_status: 'declined' }]);
      expect(updated.location).toBe('Room 4, Building B');
      expect(updated.reminders).toEqual(timed.reminders);
      expect(updated.etag).not.toBe(created.etag);
      expect(await provider.getEvent(calendar, 'evt-upd')).toEqual(updated);
    });

    it('deletes an event; reading it afterwards is NOT_FOUND', async () => {
      const provider = providerFor(radicale, { newId: () => 'evt-del' });
      const calendar = await calendarNamed('rt-del');
      const created = await provider.createEvent(calendar, timed);

      await provider.deleteEvent(calendar, 'evt-del', { scope: 'all', if_match: created.etag });

      await expect(provider.getEvent(calendar, 'evt-del')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect((await rawGet(radicale, `${calendarPath(calendar)}evt-del.ics`)).status).toBe(404);
    });

    it('refuses an end before the start with INVALID_INPUT', async () => {
      const provider = providerFor(radicale);
      const calendar = await freshCalendar(provider);

      await expect(
        provider.createEvent(calendar, {
          summary: 'backwards',
          start: { date_time: '2026-03-10T10:00:00Z' },
          end: { date_time: '2026-03-10T09:00:00Z' },
        }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    });
  });

  describe('events written by other clients', () => {
    it('finds an event by UID when its file has another name, and keeps properties Meridian does not model', async () => {
      const provider = providerFor(radicale);
      const calendar = await freshCalendar(provider);
      const foreign = [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Other//Client//EN',
        'BEGIN:VEVENT',
        'UID:Foreign-UID@other.example',
        'DTSTAMP:20260101T000000Z',
        'DTSTART;TZID=Europe/Berlin:20260310T140000',
        'DURATION:PT45M',
        'SUMMARY:Imported',
        'CATEGORIES:Work,Travel',
        'X-OTHER-CLIENT:keep me',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n');
      expect((await rawPut(radicale, `${calendarPath(calendar)}whatever-name.ics`, foreign)).status).toBe(
        201,
      );

      const event = await provider.getEvent(calendar, 'Foreign-UID@other.example');
      await provider.updateEvent(
        calendar,
        event.id,
        { summary: 'Imported, edited' },
        { scope: 'all', if_match: event.etag },
      );
      const ics = await (await rawGet(radicale, `${calendarPath(calendar)}whatever-name.ics`)).text();

      expect(event.start).toEqual({ date_time: '2026-03-10T14:00:00+01:00', time_zone: 'Europe/Berlin' });
      expect(event.end).toEqual({ date_time: '2026-03-10T14:45:00+01:00', time_zone: 'Europe/Berlin' });
      expect(ics).toContain('SUMMARY:Imported\\, edited');
      expect(ics).toContain('CATEGORIES:Work,Travel');
      expect(ics).toContain('X-OTHER-CLIENT:keep me');
      expect(ics).not.toContain('DURATION');
    });
  });

  describe('listEvents', () => {
    it('returns the events overlapping the window (end > start, start < end), ordered by start', async () => {
      const provider = providerFor(radicale);
      const calendar = await freshCalendar(provider);
      const at = (summary: string, start: string, end: string) =>
        provider.createEvent(calendar, { summary, start: { date_time: start }, end: { date_time: end } });
      await at('ends at window start', '2026-04-01T08:00:00Z', '2026-04-01T09:00:00Z');
      await at('straddles start', '2026-04-01T08:30:00Z', '2026-04-01T09:30:00Z');
      await at('inside', '2026-04-01T10:00:00Z', '2026-04-01T11:00:00Z');
      await at('straddles end', '2026-04-01T11:30:00Z', '2026-04-01T12:30:00Z');
      await at('starts at window end', '2026-04-01T12:00:00Z', '2026-04-01T13:00:00Z');
      await at('covers window', '2026-03-31T00:00:00Z', '2026-04-02T00:00:00Z');
      await provider.createEvent(calendar, {
        summary: 'all-day that day',
        start: { date: '2026-04-01' },
        end: { date: '2026-04-02' },
      });
      await provider.createEvent(calendar, {
        summary: 'all-day day before',
        start: { date: '2026-03-31' },
        end: { date: '2026-04-01' },
      });

      const page = await provider.listEvents(
        calendar,
        window('2026-04-01T09:00:00Z', '2026-04-01T12:00:00Z'),
      );

      expect(page.events.map((e) => e.summary)).toEqual([
        'covers window',
        'all-day that day',
        'straddles start',
        'inside',
        'straddles end',
      ]);
      expect(page.next_page_token).toBeUndefined();
    });

    it('pages with stable tokens: every event exactly once, even when one is added between pages', async () => {
      const provider = providerFor(radicale);
      const calendar = await freshCalendar(provider);
      const starts = ['01T10', '01T11', '01T11', '02T09', '02T15', '03T08', '03T23'];
      for (const [i, start] of starts.entries()) {
        await provider.createEvent(calendar, {
          summary: `event ${i}`,
          start: { date_time: `2026-05-${start}:00:00Z` },
          end: { date_time: `2026-05-${start}:30:00Z` },
        });
      }
      const query = window('2026-05-01T00:00:00Z', '2026-05-08T00:00:00Z');
      const all = (await provider.listEvents(calendar, { ...query, max_results: 100 })).events.map(
        (e) => e.id,
      );

      const seen: string[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const page = await provider.listEvents(calendar, {
          ...query,
          max_results: 3,
          ...(token ? { page_token: token } : {}),
        });
        seen.push(...page.events.map((e) => e.id));
        token = page.next_page_token;
        pages += 1;
        if (pages === 1) {
          // Earlier than everything seen so far: must not shift what the next page returns.
          await provider.createEvent(calendar, {
            summary: 'late insert before the cursor',
            start: { date_time: '2026-05-01T00:30:00Z' },
            end: { date_time: '2026-05-01T00:45:00Z' },
          });
        }
      } while (token);

      expect(all).toHaveLength(7);
      expect(seen).toEqual(all);
      expect(pages).toBe(3);
    });

    it('filters by free text on summary, description, location and attendee emails, case-insensitively', async () => {
      const provider = providerFor(radicale);
      const calendar = await freshCalendar(provider);
      const base = {
        start: { date_time: '2026-06-01T10:00:00Z' },
        end: { date_time: '2026-06-01T11:00:00Z' },
      };
      await provider.createEvent(calendar, { ...base, summary: 'Budget review' });
      await provider.createEvent(calendar, { ...base, summary: 'Lunch', location: 'BUDGET café' });
      await provider.createEvent(calendar, {
        ...base,
        summary: 'Sync',
        attendees: [{ email: 'budget.owner@example.com', response_status: 'needsAction' }],
      });
      await provider.createEvent(calendar, { ...base, summary: 'Unrelated', description: 'nothing here' });

      const page = await provider.listEvents(calendar, {
        ...window('2026-06-01T00:00:00Z', '2026-06-02T00:00:00Z'),
        query: 'budget',
      });

      expect(page.events.map((e) => e.summary).sort()).toEqual(['Budget review', 'Lunch', 'Sync']);
    });

    it('rejects a page token it did not issue with INVALID_INPUT', async () => {
      const provider = providerFor(radicale);
      const calendar = await freshCalendar(provider);

      await expect(
        provider.listEvents(calendar, {
          ...window('2026-06-01T00:00:00Z', '2026-06-02T00:00:00Z'),
          page_token: 'garbage',
        }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    });
  });

  describe('errors', () => {
    it('maps a wrong password to PROVIDER_AUTH_FAILED without echoing the password', async () => {
      const provider = providerFor(radicale, { password: 'not-the-password' });

      const error = await provider.listCalendars().catch((e: unknown) => e);

      expect(error).toMatchObject({ code: 'PROVIDER_AUTH_FAILED' });
      expect((error as Error).message).toContain('npx meridian connect caldav');
      expect(JSON.stringify(error) + (error as Error).message).not.toContain('not-the-password');
    });

    it('answers STALE_WRITE when if_match is not the current etag', async () => {
      const provider = providerFor(radicale, { newId: () => 'evt-stale' });
      const calendar = await calendarNamed('err-stale');
      const created = await provider.createEvent(calendar, timed);
      await provider.updateEvent(
        calendar,
        'evt-stale',
        { summary: 'first writer' },
        { scope: 'all', if_match: created.etag },
      );

      const update = provider.updateEvent(
        calendar,
        'evt-stale',
        { summary: 'second writer' },
        { scope: 'all', if_match: created.etag },
      );
      await expect(update).rejects.toMatchObject({ code: 'STALE_WRITE' });
      const remove = provider.deleteEvent(calendar, 'evt-stale', { scope: 'all', if_match: created.etag });

      await expect(remove).rejects.toMatchObject({ code: 'STALE_WRITE' });
      expect((await provider.getEvent(calendar, 'evt-stale')).summary).toBe('first writer');
    });

    it('answers STALE_WRITE when another client changes the event between our read and our write (server 412)', async () => {
      const provider = providerFor(radicale, { newId: () => 'evt-race' });
      const calendar = await calendarNamed('err-race');
      await provider.createEvent(calendar, timed);
      let raced = false;
      const racing = providerFor(radicale, {
        fetch: async (input, init) => {
          if (init?.method === 'PUT' && !raced) {
            raced = true;
            const current = await (await rawGet(radicale, `${calendarPath(calendar)}evt-race.ics`)).text();
            await rawPut(
              radicale,
              `${calendarPath(calendar)}evt-race.ics`,
              current.replace('SUMMARY:Design review', 'SUMMARY:Other client'),
            );
          }
          return fetch(input, init);
        },
      });

      await expect(
        racing.updateEvent(calendar, 'evt-race', { summary: 'Meridian' }, { scope: 'all' }),
      ).rejects.toMatchObject({
        code: 'STALE_WRITE',
      });
      expect((await provider.getEvent(calendar, 'evt-race')).summary).toBe('Other client');
    });

    it('answers NOT_FOUND for an unknown event and an unknown calendar', async () => {
      const provider = providerFor(radicale);
      const calendar = await freshCalendar(provider);

      await expect(provider.getEvent(calendar, 'no-such-event')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(
        provider.listEvents(
          { ...calendar, native_id: 'no-such-calendar' },
          window('2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'),
        ),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('reports an unreachable server as PROVIDER_ERROR', async () => {
      const provider = providerFor(radicale, { serverUrl: 'http://127.0.0.1:9/' });

      await expect(provider.listCalendars()).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
    });
  });
});

/** A calendar with a known collection name, so that tests can look at its resources directly. */
async function calendarNamed(name: string) {
  const creator = providerFor(radicale, { newId: () => name });
  return creator.calendarRef(await creator.createCalendar({ name }));
}
