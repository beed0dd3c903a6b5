import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CalendarEvent } from '../../../lambdas/core/calendar/event.js';
import { type GoogleFixture, PREFIX, startGoogleFixture } from './google-fixture.js';

const NY = 'America/New_York';

describe('GoogleCalendarProvider', () => {
  let fixture: GoogleFixture;

  beforeEach(async () => {
    fixture = await startGoogleFixture();
  });
  afterEach(async () => {
    await fixture.close();
  });

  describe('listCalendars', () => {
    it('lists every calendar across pages with id, primary flag and access role', async () => {
      for (let i = 0; i < 260; i += 1) {
        fixture.google.store.addCalendar({
          id: `shared${i}@group.calendar.google.com`,
          summary: `Shared ${i}`,
          timeZone: 'Europe/Paris',
          accessRole: 'reader',
          primary: false,
        });
      }

      const calendars = await fixture.provider.listCalendars();

      expect(calendars).toHaveLength(261);
      expect(calendars[0]).toEqual({
        native_id: 'alice@example.com',
        name: 'alice@example.com',
        time_zone: NY,
        primary: true,
        access_role: 'owner',
      });
      expect(calendars[260]).toMatchObject({
        native_id: 'shared259@group.calendar.google.com',
        access_role: 'reader',
      });
      expect(fixture.google.requests).toHaveLength(2);
    });
  });

  describe('createCalendar', () => {
    it('creates an owned, non-primary calendar that is then listed', async () => {
      const created = await fixture.provider.createCalendar({
        name: 'Project X',
        description: 'Deadlines',
        time_zone: 'Europe/Berlin',
      });

      expect(created).toMatchObject({
        name: 'Project X',
        description: 'Deadlines',
        time_zone: 'Europe/Berlin',
        primary: false,
        access_role: 'owner',
      });
      expect((await fixture.provider.listCalendars()).map((c) => c.native_id)).toContain(created.native_id);
      expect(fixture.provider.calendarRef(created).calendar_id).toBe(`${PREFIX}${created.native_id}`);
    });
  });

  describe('createEvent', () => {
    it('round-trips attendees, reminders, colour, transparency and visibility', async () => {
      const created = await fixture.provider.createEvent(fixture.primary, {
        summary: 'Planning',
        start: { date_time: '2026-03-10T14:00:00Z', time_zone: NY },
        end: { date_time: '2026-03-10T15:00:00Z', time_zone: NY },
        attendees: [
          { email: 'bob@example.com', display_name: 'Bob', response_status: 'accepted' },
          { email: 'carol@example.com', response_status: 'needsAction', optional: true },
        ],
        reminders: { use_default: false, overrides: [{ method: 'popup', minutes: 10 }] },
        color_id: '5',
        transparency: 'transparent',
        visibility: 'private',
      });

      const read = await fixture.provider.getEvent(fixture.primary, created.id);

      expect(read).toMatchObject({
        // Google answers in UTC here; the adapter renders times in the event's zone.
        start: { date_time: '2026-03-10T10:00:00-04:00', time_zone: NY },
        attendees: [
          { email: 'bob@example.com', display_name: 'Bob', response_status: 'accepted' },
          { email: 'carol@example.com', response_status: 'needsAction', optional: true },
        ],
        reminders: { use_default: false, overrides: [{ method: 'popup', minutes: 10 }] },
        color_id: '5',
        transparency: 'transparent',
        visibility: 'private',
        organizer: { email: 'alice@example.com' },
      });
      expect(read.html_link).toMatch(/^https:\/\/www\.google\.com\/calendar\/event\?eid=/);
    });

    it('invites guests (sendUpdates=all) only when the event has attendees', async () => {
      const base = {
        start: { date_time: '2026-03-10T09:00:00-04:00' },
        end: { date_time: '2026-03-10T10:00:00-04:00' },
      };
      await fixture.provider.createEvent(fixture.primary, { ...base, summary: 'Solo' });
      await fixture.provider.createEvent(fixture.primary, {
        ...base,
        summary: 'Meeting',
        attendees: [{ email: 'bob@example.com', response_status: 'needsAction' }],
      });

      const inserts = fixture.google.requests.filter((r) => r.method === 'POST');

      expect(inserts.map((r) => r.query.get('sendUpdates'))).toEqual(['none', 'all']);
    });

    it('sends a Google-valid client-chosen id (base32hex)', async () => {
      const created = await fixture.provider.createEvent(fixture.primary, {
        summary: 'Id check',
        start: { date: '2026-03-10' },
        end: { date: '2026-03-11' },
      });

      expect(created.id).toMatch(/^[a-v0-9]{26}$/);
    });
  });

  describe('listEvents', () => {
    it('pages 120 events 50 at a time without drops or repeats', async () => {
      const created: string[] = [];
      for (let i = 0; i < 120; i += 1) {
        const minute = String(i % 60).padStart(2, '0');
        const hour = String(8 + Math.floor(i / 60)).padStart(2, '0');
        const event = await fixture.provider.createEvent(fixture.primary, {
          summary: `Slot ${i}`,
          start: { date_time: `2026-07-01T${hour}:${minute}:00-04:00`, time_zone: NY },
          end: { date_time: `2026-07-01T${hour}:${minute}:30-04:00`, time_zone: NY },
        });
        created.push(event.id);
      }

      const pages: CalendarEvent[][] = [];
      let page_token: string | undefined;
      do {
        const page = await fixture.provider.listEvents(fixture.primary, {
          start: '2026-07-01T00:00:00-04:00',
          end: '2026-07-02T00:00:00-04:00',
          single_events: true,
          max_results: 50,
          page_token,
        });
        pages.push(page.events);
        page_token = page.next_page_token;
      } while (page_token);

      expect(pages.map((p) => p.length)).toEqual([50, 50, 20]);
      expect(pages.flat().map((e) => e.id)).toEqual(created);
      const lists = fixture.google.requests.filter((r) => r.method === 'GET');
      expect(lists.map((r) => r.query.get('orderBy'))).toEqual(['startTime', 'startTime', 'startTime']);
    });

    it('does not ask Google to order series masters by start (Google refuses that)', async () => {
      await fixture.provider.listEvents(fixture.primary, {
        start: '2026-07-01T00:00:00Z',
        end: '2026-07-02T00:00:00Z',
        single_events: false,
        max_results: 5000,
      });

      const [request] = fixture.google.requests;
      expect(request?.query.has('orderBy')).toBe(false);
      expect(request?.query.get('maxResults')).toBe('2500');
    });
  });

  describe('updateEvent', () => {
    it('sends the caller’s etag as If-Match', async () => {
      const created = await fixture.provider.createEvent(fixture.primary, {
        summary: 'Guarded',
        start: { date_time: '2026-03-10T09:00:00-04:00' },
        end: { date_time: '2026-03-10T10:00:00-04:00' },
      });

      await fixture.provider.updateEvent(
        fixture.primary,
        created.id,
        { summary: 'Still guarded' },
        {
          scope: 'this',
          if_match: created.etag,
        },
      );

      const patch = fixture.google.requests.find((r) => r.method === 'PATCH');
      expect(patch?.ifMatch).toBe(created.etag);
    });

    it('keeps the duration when only the start moves', async () => {
      const created = await fixture.provider.createEvent(fixture.primary, {
        summary: 'Ninety minutes',
        start: { date_time: '2026-03-10T09:00:00-04:00', time_zone: NY },
        end: { date_time: '2026-03-10T10:30:00-04:00', time_zone: NY },
      });

      const moved = await fixture.provider.updateEvent(
        fixture.primary,
        created.id,
        { start: { date_time: '2026-03-10T13:00:00-04:00', time_zone: NY } },
        { scope: 'this' },
      );

      expect(moved.end).toEqual({ date_time: '2026-03-10T14:30:00-04:00', time_zone: NY });
    });

    it('turns a timed event into an all-day one', async () => {
      const created = await fixture.provider.createEvent(fixture.primary, {
        summary: 'Becomes all-day',
        start: { date_time: '2026-03-10T09:00:00-04:00', time_zone: NY },
        end: { date_time: '2026-03-10T10:00:00-04:00', time_zone: NY },
      });

      const updated = await fixture.provider.updateEvent(
        fixture.primary,
        created.id,
        { start: { date: '2026-03-10' }, end: { date: '2026-03-11' } },
        { scope: 'this' },
      );

      expect([updated.start, updated.end]).toEqual([{ date: '2026-03-10' }, { date: '2026-03-11' }]);
    });
  });

  describe('deleteEvent', () => {
    it('answers NOT_FOUND when the event was already deleted (Google: 410 Gone)', async () => {
      const created = await fixture.provider.createEvent(fixture.primary, {
        summary: 'Twice',
        start: { date_time: '2026-03-10T09:00:00-04:00' },
        end: { date_time: '2026-03-10T10:00:00-04:00' },
      });
      await fixture.provider.deleteEvent(fixture.primary, created.id, { scope: 'this' });

      await expect(
        fixture.provider.deleteEvent(fixture.primary, created.id, { scope: 'this' }),
      ).rejects.toMatchObject({
        code: 'NOT_FOUND',
        details: { status: 410 },
      });
    });
  });

  it('refuses a calendar of another connection', async () => {
    const foreign = {
      native_id: 'alice@example.com',
      calendar_id: 'google/other-connection/alice@example.com',
    };

    await expect(fixture.provider.getEvent(foreign, 'abcdef')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(fixture.google.requests).toHaveLength(0);
  });
});
