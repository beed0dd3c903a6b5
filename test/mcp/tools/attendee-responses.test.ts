import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../../support/mcp-client.js';
import { needs, RADICALE } from '../../support/system-parts.js';
import {
  NY,
  OWNER,
  PROVIDERS,
  type ProviderCalendars,
  type ProviderName,
  startProviderCalendars,
} from './provider-calendars.js';

const BOB = 'bob@example.com';
const CAROL = 'carol@example.com';

type Attendee = { email: string; display_name?: string; response_status: string; optional?: boolean };

/**
 * Issue 22, items 4 and 5, at the tools over HTTP on every provider (native, the fake Google
 * Calendar, Radicale): attendees with responses, the owner's answer recorded with
 * respond_to_event (a declined event then stops blocking time, read live from the provider), and
 * etags of their own for the occurrences of a series.
 */
describe('attendee responses and per-occurrence etags', needs(RADICALE), () => {
  let env: ProviderCalendars;

  beforeAll(async () => {
    env = await startProviderCalendars();
  }, 60_000);

  afterAll(async () => {
    await env?.close();
  });

  describe.each(PROVIDERS)('on %s', (provider: ProviderName) => {
    const calendar = () => env.calendars[provider];
    const at = (day: string, time: string) => ({
      date_time: `2026-03-${day}T${time}:00-05:00`,
      time_zone: NY,
    });
    const attendeesOf = async (eventId: string): Promise<Attendee[]> =>
      (await env.call('get_event', { calendar_id: calendar(), event_id: eventId })).event
        .attendees as Attendee[];
    const byEmail = (attendees: Attendee[]) => Object.fromEntries(attendees.map((a) => [a.email, a]));

    it('create_event takes attendee objects beside plain addresses, and the answers show each response', async () => {
      const { event_id } = await env.call('create_event', {
        calendar_id: calendar(),
        summary: 'Planning',
        start: at('02', '10:00'),
        end: at('02', '11:00'),
        attendees: [
          { email: OWNER, response: 'accepted' },
          { email: BOB, name: 'Bob', response: 'tentative', optional: true },
          CAROL,
        ],
      });

      const attendees = byEmail(await attendeesOf(event_id));
      const listing = await env.callRaw('list_events', {
        calendar_id: calendar(),
        start: '2026-03-02T00:00:00Z',
        end: '2026-03-03T00:00:00Z',
        format: 'toon',
      });

      expect(attendees[OWNER]).toMatchObject({ response_status: 'accepted' });
      expect(attendees[BOB]).toMatchObject({
        display_name: 'Bob',
        response_status: 'tentative',
        optional: true,
      });
      expect(attendees[CAROL]).toMatchObject({ response_status: 'needsAction' });
      const text = listing.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      expect(text).toContain(`${OWNER}:accepted ${BOB}:tentative ${CAROL}`);
    });

    it('respond_to_event declined frees the time in check_availability, find_free_slots and book_slot', async () => {
      const window = { start: '2026-03-03T10:00:00-05:00', end: '2026-03-03T11:00:00-05:00' };
      const { event_id } = await env.call('create_event', {
        calendar_id: calendar(),
        summary: 'Offsite',
        start: at('03', '10:00'),
        end: at('03', '11:00'),
        attendees: [OWNER, BOB],
      });
      const before = await env.call('check_availability', { calendar_id: calendar(), ...window });

      const answer = await env.call('respond_to_event', {
        calendar_id: calendar(),
        event_id,
        response: 'declined',
      });
      const after = await env.call('check_availability', { calendar_id: calendar(), ...window });
      const slots = await env.call('find_free_slots', {
        calendar_id: calendar(),
        ...window,
        min_duration_minutes: 60,
      });
      const booked = await env.call('book_slot', {
        calendar_id: calendar(),
        start: window.start,
        end: '2026-03-03T10:30:00-05:00',
        summary: 'Interview',
      });

      expect(before.available).toBe(false);
      expect(answer).toMatchObject({ attendee: OWNER, response: 'declined', previous: 'needsAction' });
      expect(answer.etag).toEqual(expect.any(String));
      expect(after).toMatchObject({ available: true, conflicts: [] });
      expect(slots.slots).toHaveLength(1);
      expect(booked.success).toBe(true);
      expect(byEmail(await attendeesOf(event_id))).toMatchObject({
        [OWNER]: { response_status: 'declined' },
        [BOB]: { response_status: 'needsAction' },
      });
    });

    it('update_event with plain addresses keeps the responses already given, so a decline is not undone', async () => {
      const { event_id } = await env.call('create_event', {
        calendar_id: calendar(),
        summary: 'Budget',
        start: at('04', '10:00'),
        end: at('04', '11:00'),
        attendees: [OWNER, { email: BOB, response: 'accepted' }],
      });
      await env.call('respond_to_event', { calendar_id: calendar(), event_id, response: 'declined' });

      await env.call('update_event', { calendar_id: calendar(), event_id, attendees: [OWNER, BOB, CAROL] });

      expect(byEmail(await attendeesOf(event_id))).toMatchObject({
        [OWNER]: { response_status: 'declined' },
        [BOB]: { response_status: 'accepted' },
        [CAROL]: { response_status: 'needsAction' },
      });
      const free = await env.call('check_availability', {
        calendar_id: calendar(),
        start: '2026-03-04T10:00:00-05:00',
        end: '2026-03-04T11:00:00-05:00',
      });
      expect(free.available).toBe(true);
    });

    it('respond_to_event refuses, saying what to do, when the owner is not an attendee', async () => {
      const { event_id } = await env.call('create_event', {
        calendar_id: calendar(),
        summary: 'Focus',
        start: at('05', '10:00'),
        end: at('05', '11:00'),
        attendees: [BOB],
      });

      const error = errorOf(
        await env.callRaw('respond_to_event', { calendar_id: calendar(), event_id, response: 'declined' }),
      );

      expect(error).toMatchObject({ code: 'INVALID_INPUT', field: 'event_id' });
      expect(error.message).toMatch(/manage_attendees/);
    });

    it('respond_to_event with an etag from before another change is refused as stale', async () => {
      const created = await env.call('create_event', {
        calendar_id: calendar(),
        summary: 'Sync',
        start: at('06', '10:00'),
        end: at('06', '11:00'),
        attendees: [OWNER],
      });
      await env.call('update_event', {
        calendar_id: calendar(),
        event_id: created.event_id,
        location: 'Room 1',
      });

      const error = errorOf(
        await env.callRaw('respond_to_event', {
          calendar_id: calendar(),
          event_id: created.event_id,
          response: 'declined',
          if_match: created.etag,
        }),
      );

      expect(error.code).toBe('STALE_WRITE');
    });

    it('update_event on an untouched occurrence takes its own if_match after a sibling moved; a series change refuses it', async () => {
      const { event_id: seriesId } = await env.call('create_event', {
        calendar_id: calendar(),
        summary: 'Weekly',
        start: at('09', '15:00'),
        end: at('09', '16:00'),
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
      });
      const listed = await env.call('list_events', {
        calendar_id: calendar(),
        start: '2026-03-09T00:00:00Z',
        end: '2026-04-01T00:00:00Z',
        query: 'Weekly',
        format: 'json',
      });
      const [first, second, third, fourth] = (listed.events as { id: string; etag: string }[]).filter((e) =>
        e.id.startsWith(`${seriesId}_`),
      );

      await env.call('update_event', {
        calendar_id: calendar(),
        event_id: second!.id,
        start: '2026-03-16T17:00:00-04:00',
        end: '2026-03-16T18:00:00-04:00',
        if_match: second!.etag,
      });
      const sibling = await env.call('update_event', {
        calendar_id: calendar(),
        event_id: third!.id,
        location: 'Room 3',
        if_match: third!.etag,
      });
      const batch = await env.call('batch_update_events', {
        calendar_id: calendar(),
        updates: [{ event_id: fourth!.id, location: 'Room 4', if_match: fourth!.etag }],
      });
      await env.call('update_event', {
        calendar_id: calendar(),
        event_id: third!.id,
        scope: 'all',
        summary: 'Weekly review',
        if_match: sibling.etag,
      });
      const stale = errorOf(
        await env.callRaw('update_event', {
          calendar_id: calendar(),
          event_id: first!.id,
          location: 'Room 1',
          if_match: first!.etag,
        }),
      );

      expect(batch.results).toEqual([expect.objectContaining({ ok: true })]);
      expect(stale.code).toBe('STALE_WRITE');
    });
  });

  // Last: once synced, a connected calendar's availability is read from the shadow copy.
  describe.each(['google', 'caldav'] as const)('after a sync, on %s', (provider) => {
    const calendar = () => env.calendars[provider];

    it('respond_to_event declined frees the time at once, though availability reads the shadow copy', async () => {
      const window = { start: '2026-03-10T10:00:00-04:00', end: '2026-03-10T11:00:00-04:00' };
      const { event_id } = await env.call('create_event', {
        calendar_id: calendar(),
        summary: 'Quarterly',
        start: window.start,
        end: window.end,
        attendees: [OWNER],
      });
      expect((await env.sync()).failed).toBe(0);
      const before = await env.call('check_availability', { calendar_id: calendar(), ...window });

      await env.call('respond_to_event', { calendar_id: calendar(), event_id, response: 'declined' });
      const after = await env.call('check_availability', { calendar_id: calendar(), ...window });

      expect(before).toMatchObject({ available: false, freshness: { source: 'shadow' } });
      expect(after).toMatchObject({ available: true, freshness: { source: 'shadow' } });
    });
  });
});
