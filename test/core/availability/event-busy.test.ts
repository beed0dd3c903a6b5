import { describe, expect, it } from 'vitest';
import { availabilityView } from '../../../lambdas/core/availability/availability-view.js';
import { busyIntervals } from '../../../lambdas/core/availability/event-busy.js';
import type { CalendarEvent } from '../../../lambdas/core/calendar/event.js';

const at = (text: string) => Date.parse(text);
const OWNER = 'ann@example.com';

function event(overrides: Partial<CalendarEvent>): CalendarEvent {
  return {
    id: 'e1',
    calendar_id: 'native/cal',
    summary: 'Meeting',
    start: { date_time: '2026-03-16T10:00:00Z' },
    end: { date_time: '2026-03-16T11:00:00Z' },
    status: 'confirmed',
    transparency: 'opaque',
    visibility: 'default',
    attendees: [],
    etag: '"1"',
    ...overrides,
  };
}

describe('availability', () => {
  describe('busyIntervals', () => {
    it('places an all-day event from midnight to midnight in the calendar zone', () => {
      const allDay = event({ start: { date: '2026-03-16' }, end: { date: '2026-03-17' } });

      expect(busyIntervals([allDay], 'Pacific/Auckland')).toEqual([
        { start: at('2026-03-15T11:00:00Z'), end: at('2026-03-16T11:00:00Z') },
      ]);
      expect(busyIntervals([allDay], 'UTC')).toEqual([
        { start: at('2026-03-16T00:00:00Z'), end: at('2026-03-17T00:00:00Z') },
      ]);
    });

    it('makes an Auckland all-day event busy only until 11:00 of a UTC day window', () => {
      const allDay = event({ start: { date: '2026-03-16' }, end: { date: '2026-03-17' } });
      const view = availabilityView(
        [busyIntervals([allDay], 'Pacific/Auckland')],
        at('2026-03-16T00:00:00Z'),
        at('2026-03-17T00:00:00Z'),
        { privacy: 'full' },
      );

      expect(view.busy).toEqual([
        { start: at('2026-03-16T00:00:00Z'), end: at('2026-03-16T11:00:00Z'), source_count: 1 },
      ]);
      expect(view.free).toEqual([
        { start: at('2026-03-16T11:00:00Z'), end: at('2026-03-17T00:00:00Z'), duration_minutes: 780 },
      ]);
    });

    it('gives an all-day event on the Auckland fall-back Sunday 25 hours', () => {
      const allDay = event({ start: { date: '2026-04-05' }, end: { date: '2026-04-06' } });
      const [interval] = busyIntervals([allDay], 'Pacific/Auckland');

      expect(interval).toEqual({ start: at('2026-04-04T11:00:00Z'), end: at('2026-04-05T12:00:00Z') });
    });

    it('leaves out free (transparent), cancelled and owner-declined events', () => {
      const events = [
        event({ id: 'free', transparency: 'transparent' }),
        event({ id: 'cancelled', status: 'cancelled' }),
        event({ id: 'declined', attendees: [{ email: 'Ann@Example.com', response_status: 'declined' }] }),
        event({
          id: 'accepted',
          start: { date_time: '2026-03-16T12:00:00+01:00' },
          end: { date_time: '2026-03-16T13:00:00+01:00' },
          attendees: [{ email: OWNER, response_status: 'accepted' }],
        }),
      ];

      expect(busyIntervals(events, 'UTC', OWNER)).toEqual([
        { start: at('2026-03-16T11:00:00Z'), end: at('2026-03-16T12:00:00Z') },
      ]);
      // Without knowing the owner, a declined invitation still blocks.
      expect(busyIntervals(events, 'UTC')).toHaveLength(2);
    });
  });
});
