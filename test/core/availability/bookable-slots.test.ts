import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bookableSlots } from '../../../lambdas/core/availability/bookable-slots.js';
import { localSpan } from '../../../lambdas/core/availability/local-span.js';

const MINUTE = 60_000;
const QUARTER = 15 * MINUTE;
const base = Date.parse('2026-03-16T00:00:00Z');

// Disjoint, sorted gaps at any minute, as freeSlots returns them.
const gaps = fc
  .array(fc.record({ pause: fc.integer({ min: 1, max: 300 }), length: fc.integer({ min: 1, max: 600 }) }), {
    maxLength: 8,
  })
  .map((parts) => {
    let cursor = base;
    return parts.map(({ pause, length }) => {
      const start = cursor + pause * MINUTE;
      cursor = start + length * MINUTE;
      return { start, end: cursor };
    });
  });

describe('availability', () => {
  describe('bookableSlots', () => {
    it('cuts every gap into as many back-to-back slots of the exact length as fit from its first quarter hour', () => {
      fc.assert(
        fc.property(gaps, fc.integer({ min: 5, max: 240 }), (free, slotMinutes) => {
          const slots = bookableSlots(free, slotMinutes, Number.MAX_SAFE_INTEGER);

          const expected = free.flatMap((gap) => {
            const first = Math.ceil(gap.start / QUARTER) * QUARTER;
            const fit = Math.max(0, Math.floor((gap.end - first) / (slotMinutes * MINUTE)));
            return Array.from({ length: fit }, (_, i) => ({
              start: first + i * slotMinutes * MINUTE,
              end: first + (i + 1) * slotMinutes * MINUTE,
            }));
          });
          expect(slots).toEqual(expected);
          for (const slot of slots) {
            expect(free.some((gap) => gap.start <= slot.start && slot.end <= gap.end)).toBe(true);
          }
        }),
      );
    });

    it('returns at most max slots, the earliest ones', () => {
      fc.assert(
        fc.property(
          gaps,
          fc.integer({ min: 5, max: 120 }),
          fc.integer({ min: 1, max: 10 }),
          (free, len, max) => {
            const all = bookableSlots(free, len, Number.MAX_SAFE_INTEGER);

            expect(bookableSlots(free, len, max)).toEqual(all.slice(0, max));
          },
        ),
      );
    });
  });

  describe('localSpan', () => {
    it('gives the wall clock and weekday of the zone, across a DST change', () => {
      // 2026-03-08 is the spring-forward day in New York: 01:30 EST, then 03:30 EDT an hour later.
      const span = localSpan(
        Date.parse('2026-03-08T06:30:00Z'),
        Date.parse('2026-03-08T07:30:00Z'),
        'America/New_York',
      );

      expect(span).toEqual({
        start: '2026-03-08T06:30:00.000Z',
        end: '2026-03-08T07:30:00.000Z',
        start_local: '2026-03-08T01:30:00-05:00',
        end_local: '2026-03-08T03:30:00-04:00',
        weekday: 'Sunday',
      });
    });
  });
});
