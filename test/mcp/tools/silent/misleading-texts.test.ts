import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../../../support/mcp-client.js';
import { NEW_YORK, type SilentWorld, startSilentWorld } from './silent-world.js';

const ny = (wall: string) => ({ date_time: wall, time_zone: NEW_YORK });

/**
 * Issue 22 item 10: descriptions, answers and errors that said something other than what the tool
 * does. Each is read where an agent reads it: tools/list, the answer, the error body.
 */
describe('what the tools say about themselves', () => {
  // No server zone configured: the world the timezone_configured answer was wrong in.
  let world: SilentWorld;
  beforeAll(async () => {
    world = await startSilentWorld('2027-03-01T12:00:00Z');
  });
  afterAll(() => world?.close());

  describe('book_slot', () => {
    it('names the error fields where the error body has them', async () => {
      const booked = { calendar_id: world.calendars.ny, summary: 'Review' };
      await world.ok('book_slot', {
        ...booked,
        start: ny('2027-03-03T10:00:00'),
        end: ny('2027-03-03T11:00:00'),
      });
      const taken = errorOf(
        await world.call('book_slot', {
          ...booked,
          start: ny('2027-03-03T10:30:00'),
          end: ny('2027-03-03T11:30:00'),
        }),
      );
      const tool = (await world.listTools()).find((t) => t.name === 'book_slot');

      expect(taken.code).toBe('SLOT_TAKEN');
      expect(taken.suggestions).toHaveLength(3);
      expect(tool?.description).toContain('error.suggestions');
      expect(tool?.description).not.toContain('details.');
    });

    it('returns the booked event’s etag, which update_event takes as if_match', async () => {
      const booking = await world.ok('book_slot', {
        calendar_id: world.calendars.ny,
        summary: 'Planning',
        start: ny('2027-03-04T10:00:00'),
        end: ny('2027-03-04T11:00:00'),
      });
      const stored = await world.ok('get_event', {
        calendar_id: world.calendars.ny,
        event_id: booking.event_id,
      });

      expect(booking.etag).toBe(stored.event.etag);
      const moved = await world.ok('update_event', {
        calendar_id: world.calendars.ny,
        event_id: booking.event_id,
        if_match: booking.etag,
        summary: 'Planning (moved)',
      });
      expect(moved.etag).not.toBe(booking.etag);
    });
  });

  describe('get_availability', () => {
    const window = { start: '2027-03-05T00:00:00Z', end: '2027-03-06T00:00:00Z' };

    beforeAll(async () => {
      await world.ok('create_event', {
        calendar_id: world.calendars.ny,
        summary: 'Busy',
        start: ny('2027-03-05T09:00:00'),
        end: ny('2027-03-05T10:00:00'),
      });
    });

    it('shows no source_count in its default opaque mode, rather than 0 calendars behind a busy block', async () => {
      const { busy } = await world.ok('get_availability', { ...window, calendar_ids: [world.calendars.ny] });

      expect(busy).toHaveLength(1);
      expect(busy[0]).not.toHaveProperty('source_count');
    });

    it('counts the calendars behind a busy block in full mode', async () => {
      const { busy } = await world.ok('get_availability', {
        ...window,
        calendar_ids: [world.calendars.ny, world.calendars.none],
        privacy: 'full',
      });

      expect(busy.map((block: { source_count: number }) => block.source_count)).toEqual([1]);
    });
  });

  describe('get_temporal_context', () => {
    it('reports timezone_configured false when the server has no zone, even for a zone passed in', async () => {
      const context = await world.ok('get_temporal_context', { timezone: 'Europe/Berlin' });

      expect(context).toMatchObject({ timezone: 'Europe/Berlin', timezone_configured: false });
    });
  });

  describe('an expression with a day and month in digits and no year', () => {
    it('gets a short resolve_datetime error that says to add the year', async () => {
      const refusal = errorOf(await world.call('resolve_datetime', { expression: '03/04 at 10' }));

      expect(refusal.code).toBe('UNRECOGNIZED_EXPRESSION');
      expect(refusal.message).toContain('"03/04" has no year: add it');
      expect(JSON.stringify(refusal).length).toBeLessThan(400);
    });

    it('gets the same advice, as short, from quick_add_event', async () => {
      const refusal = errorOf(
        await world.call('quick_add_event', { calendar_id: world.calendars.ny, text: 'Meeting 03/04 at 10' }),
      );

      expect(refusal.message).toContain('add the year');
      expect(JSON.stringify(refusal).length).toBeLessThan(400);
    });
  });

  describe('batch_update_events', () => {
    it('points to error.failures, where the failures are, when every update failed', async () => {
      const refusal = errorOf(
        await world.call('batch_update_events', {
          calendar_id: world.calendars.ny,
          updates: [{ event_id: 'no-such-event', summary: 'x' }],
        }),
      );

      expect(refusal.failures).toHaveLength(1);
      expect(refusal.message).toContain('see error.failures');
    });
  });
});
