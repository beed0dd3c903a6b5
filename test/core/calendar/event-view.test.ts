import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { CalendarEvent } from '../../../lambdas/core/calendar/event.js';
import { toEventView } from '../../../lambdas/core/calendar/event-view.js';
import { formatInstant, formatUtc } from '../../../lambdas/core/time/instants.js';

const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'UTC',
  'Pacific/Chatham',
];

const event = (dateTime: string, zone?: string): CalendarEvent =>
  ({
    id: 'e1',
    calendar_id: 'native/c',
    summary: 'x',
    start: { date_time: dateTime, ...(zone ? { time_zone: zone } : {}) },
    end: { date_time: dateTime, ...(zone ? { time_zone: zone } : {}) },
    status: 'confirmed',
    transparency: 'opaque',
    visibility: 'default',
    attendees: [],
  }) as unknown as CalendarEvent;

/** The view's text, checked against luxon (which wrote it before the fast path). */
describe('toEventView', () => {
  it('writes the same UTC and local text as luxon for any instant, offset spelling and zone', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) }),
        fc.constantFrom(...ZONES),
        fc.constantFrom('Z', '+05:30', '-03:00'),
        fc.boolean(),
        (ms, zone, offset, millis) => {
          const shown = DateTime.fromMillis(ms - (ms % (millis ? 1 : 1000)), {
            zone: offset === 'Z' ? 'utc' : `UTC${offset}`,
          });
          const text = shown
            .toISO({ suppressMilliseconds: !millis, includeOffset: true })!
            .replace(/\+00:00$/, 'Z');
          const reference = DateTime.fromISO(text, { setZone: true });

          const view = toEventView(event(text, zone), 'UTC');

          expect(view.start_utc).toBe(formatUtc(reference));
          expect(view.start_local).toBe(formatInstant(reference.setZone(zone)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('still reads spellings outside the ECMAScript format through luxon', () => {
    const view = toEventView(event('2026-11-16T09:00:00.5+01:00', 'Europe/Berlin'), 'UTC');

    expect(view.start_utc).toBe('2026-11-16T08:00:00.500+00:00');
    expect(view.start_local).toBe('2026-11-16T09:00:00.500+01:00');
  });

  it('refuses an unreadable date_time with OUT_OF_RANGE, as before', () => {
    expect(() => toEventView(event('not a time'), 'UTC')).toThrow(
      expect.objectContaining({ code: 'OUT_OF_RANGE' }),
    );
  });
});
