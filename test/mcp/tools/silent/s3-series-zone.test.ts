import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEW_YORK, type SilentWorld, startSilentWorld } from './silent-world.js';

/** Issue 22 S3: a moved occurrence keeps its series' zone; a new calendar always gets a zone, said. */
describe('zones kept on writes', () => {
  describe('update_event on one occurrence of a zoned series', () => {
    let world: SilentWorld;
    // No configured zone: a zoneless calendar falls back to UTC.
    beforeAll(async () => {
      world = await startSilentWorld('2027-01-01T12:00:00Z');
    });
    afterAll(() => world?.close());

    async function secondOccurrence(calendarId: string, zone: string, wall: string) {
      const { event_id } = await world.ok('create_event', {
        calendar_id: calendarId,
        summary: 'Weekly sync',
        start: { date_time: `2027-01-05T${wall}`, time_zone: zone },
        end: {
          date_time: `2027-01-05T${wall.replace(/^(\d\d)/, (h) => String(Number(h) + 1).padStart(2, '0'))}`,
          time_zone: zone,
        },
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
      });
      const listed = await world.ok('list_events', {
        calendar_id: calendarId,
        start: '2027-01-10T00:00:00Z',
        end: '2027-01-15T00:00:00Z',
        format: 'json',
      });
      const occurrence = listed.events.find((e: { id: string }) => e.id.startsWith(`${event_id}_`));
      expect(occurrence).toBeDefined();
      return occurrence.id as string;
    }

    it('keeps America/New_York on a calendar with no zone, given -05:00 times', async () => {
      const id = await secondOccurrence(world.calendars.none, NEW_YORK, '09:00:00');

      const moved = await world.ok('update_event', {
        calendar_id: world.calendars.none,
        event_id: id,
        scope: 'this',
        start: '2027-01-12T11:00:00-05:00',
        end: '2027-01-12T12:00:00-05:00',
        return_event: true,
      });
      const read = await world.ok('get_event', {
        calendar_id: world.calendars.none,
        event_id: moved.event_id,
      });

      for (const event of [moved.event, read.event ?? read]) {
        expect(event).toMatchObject({
          time_zone: NEW_YORK,
          start_local: '2027-01-12T11:00:00-05:00',
          start_utc: '2027-01-12T16:00:00+00:00',
        });
      }
    });

    it("keeps the series' zone, not the calendar's, on a zoned calendar", async () => {
      const id = await secondOccurrence(world.calendars.ny, 'Europe/Berlin', '15:00:00');

      const moved = await world.ok('update_event', {
        calendar_id: world.calendars.ny,
        event_id: id,
        scope: 'this',
        start: '2027-01-12T16:00:00+01:00',
        end: '2027-01-12T17:00:00+01:00',
        return_event: true,
      });

      expect(moved.event).toMatchObject({
        time_zone: 'Europe/Berlin',
        start_local: '2027-01-12T16:00:00+01:00',
      });
    });
  });

  describe('create_calendar without a zone', () => {
    it("gets the server's configured zone and says so", async () => {
      const world = await startSilentWorld('2027-01-01T12:00:00Z', { defaultTimezone: NEW_YORK });
      try {
        const created = await world.ok('create_calendar', { summary: 'Client work' });
        expect(created.calendar.time_zone).toBe(NEW_YORK);
        expect(created.time_zone_from).toBe('server_default');
        const given = await world.ok('create_calendar', { summary: 'Berlin', time_zone: 'europe/berlin' });
        expect([given.calendar.time_zone, given.time_zone_from]).toEqual(['Europe/Berlin', 'input']);
      } finally {
        await world.close();
      }
    });

    it('gets UTC, said, when no zone is configured', async () => {
      const world = await startSilentWorld('2027-01-01T12:00:00Z');
      try {
        const created = await world.ok('create_calendar', { summary: 'Client work' });
        expect([created.calendar.time_zone, created.time_zone_from]).toEqual(['UTC', 'utc']);
      } finally {
        await world.close();
      }
    });
  });
});
