import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { availabilityView } from '../../../lambdas/core/availability/availability-view.js';
import { freeSlots } from '../../../lambdas/core/availability/free-slots.js';
import { mergeWithSources } from '../../../lambdas/core/availability/merge-with-sources.js';
import { isSlotFree } from '../../../lambdas/core/availability/slot-check.js';
import type { WorkingHours } from '../../../lambdas/core/availability/working-hours.js';
import type { Interval } from '../../../lambdas/core/calendar/busy-intervals.js';
import { bruteBusy, bruteConflicts, bruteFree, type Hours } from './brute-force.js';

const MINUTE = 60_000;

// Windows are placed around the 2026 DST changes of each zone (and plain days for the others),
// so that working hours often straddle a spring-forward gap or a fall-back repeat.
const PLACES = [
  { zone: 'America/New_York', at: '2026-03-08T07:00:00Z' },
  { zone: 'America/New_York', at: '2026-11-01T06:00:00Z' },
  { zone: 'Europe/London', at: '2026-03-29T01:00:00Z' },
  { zone: 'Europe/London', at: '2026-10-25T01:00:00Z' },
  { zone: 'Pacific/Auckland', at: '2026-04-04T14:00:00Z' },
  { zone: 'Australia/Lord_Howe', at: '2026-10-03T15:30:00Z' },
  { zone: 'Australia/Lord_Howe', at: '2026-04-04T15:00:00Z' },
  { zone: 'America/Santiago', at: '2026-09-06T04:00:00Z' },
  { zone: 'Asia/Kathmandu', at: '2026-03-16T00:00:00Z' },
  { zone: 'UTC', at: '2026-03-16T00:00:00Z' },
].map((place) => ({ zone: place.zone, at: Date.parse(place.at) }));

// Half of the intervals sit on a half-hour grid, so that touching and equal ends are common.
const onGrid = (min: number, max: number) => fc.integer({ min: min / 30, max: max / 30 }).map((n) => n * 30);
const interval = fc.oneof(
  fc.record({
    offset: fc.integer({ min: -300, max: 2 * 1440 + 300 }),
    minutes: fc.integer({ min: 0, max: 480 }),
  }),
  fc.record({ offset: onGrid(-300, 2 * 1440 + 300), minutes: onGrid(0, 480) }),
);
// Working-hour bounds are often the small hours, where the clock changes happen.
const clockMinute = (max: number) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(0, 30, 60, 90, 120, 135, 150, 180, max), weight: 2 },
    { arbitrary: fc.integer({ min: 0, max }), weight: 1 },
  );

const workingHours = fc
  .record({
    startMinute: clockMinute(1439),
    endMinute: clockMinute(1440),
    days: fc.oneof(fc.constant([1, 2, 3, 4, 5, 6, 7]), fc.subarray([1, 2, 3, 4, 5, 6, 7], { minLength: 1 })),
  })
  .filter((h) => h.startMinute !== h.endMinute);

const scenario = fc.record({
  place: fc.constantFrom(...PLACES),
  startMinute: fc.integer({ min: -2 * 1440, max: 360 }),
  lengthMinutes: fc.integer({ min: 1, max: 2 * 1440 }),
  calendars: fc.array(fc.array(interval, { maxLength: 12 }), { minLength: 1, maxLength: 5 }),
  bufferMinutes: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 90 })),
  minDurationMinutes: fc.integer({ min: 0, max: 180 }),
  hours: fc.option(workingHours, { nil: undefined }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

// Working hours alone (and at most a few events) over a window that holds a clock change.
const clockChange: fc.Arbitrary<Scenario> = fc.record({
  place: fc.constantFrom(...PLACES.filter((p) => p.zone !== 'UTC' && p.zone !== 'Asia/Kathmandu')),
  startMinute: fc.integer({ min: -36 * 60, max: 0 }),
  lengthMinutes: fc.integer({ min: 36 * 60, max: 2 * 1440 }),
  calendars: fc.array(fc.array(interval, { maxLength: 2 }), { minLength: 1, maxLength: 2 }),
  bufferMinutes: fc.constant(0),
  minDurationMinutes: fc.integer({ min: 0, max: 30 }),
  hours: workingHours,
});

function build(s: Scenario) {
  const from = s.place.at + s.startMinute * MINUTE;
  const to = from + s.lengthMinutes * MINUTE;
  const calendars: Interval[][] = s.calendars.map((list) =>
    list.map(({ offset, minutes }) => ({
      start: from + offset * MINUTE,
      end: from + (offset + minutes) * MINUTE,
    })),
  );
  const clock = (m: number) =>
    `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  const workingHours: WorkingHours | undefined = s.hours && {
    start: clock(s.hours.startMinute),
    end: clock(s.hours.endMinute),
    zone: s.place.zone,
    days: s.hours.days,
  };
  const hours: Hours | undefined = s.hours && { ...s.hours, zone: s.place.zone };
  return { from, to, calendars, workingHours, hours };
}

/** Each property runs once with a fixed seed (reproducible) and once with a fresh one. */
function property(name: string, arbitrary: fc.Arbitrary<Scenario>, check: (s: Scenario) => void) {
  it(`${name} (fixed seed)`, () =>
    fc.assert(fc.property(arbitrary, check), { seed: 20_260_316, numRuns: 200 }));
  it(`${name} (random seed)`, () => fc.assert(fc.property(arbitrary, check), { numRuns: 200 }));
}

describe('availability properties against a minute-by-minute model', () => {
  property(
    'mergeWithSources gives the covered runs and distinct calendars, on both sort paths',
    scenario,
    (s) => {
      const { from, to, calendars } = build(s);
      const expected = bruteBusy(calendars, from, to);

      expect(mergeWithSources(calendars, from, to)).toEqual(expected);
      expect(mergeWithSources(calendars, from, to, 'compare')).toEqual(expected);
    },
  );

  property('freeSlots matches the model with minimum durations, buffers and working hours', scenario, (s) => {
    const { from, to, calendars, workingHours, hours } = build(s);
    const all = calendars.flat();
    const options = { minDurationMinutes: s.minDurationMinutes, bufferMinutes: s.bufferMinutes };
    const expected = bruteFree(all, from, to, {
      minDuration: s.minDurationMinutes,
      buffer: s.bufferMinutes,
      hours,
    });

    expect(freeSlots(all, from, to, workingHours ? { ...options, workingHours } : options)).toEqual(expected);
  });

  property('freeSlots follows working hours across clock changes like the model', clockChange, (s) => {
    const { from, to, calendars, workingHours, hours } = build(s);
    const all = calendars.flat();
    const expected = bruteFree(all, from, to, { minDuration: s.minDurationMinutes, buffer: 0, hours });

    expect(freeSlots(all, from, to, { minDurationMinutes: s.minDurationMinutes, workingHours })).toEqual(
      expected,
    );
  });

  property('availabilityView merges busy time and finds the same free time', scenario, (s) => {
    const { from, to, calendars, workingHours, hours } = build(s);
    const view = availabilityView(calendars, from, to, {
      privacy: 'full',
      minFreeSlotMinutes: s.minDurationMinutes,
      bufferMinutes: s.bufferMinutes,
      ...(workingHours ? { workingHours } : {}),
    });
    const opaque = availabilityView(calendars, from, to, { minFreeSlotMinutes: s.minDurationMinutes });

    expect(view.busy).toEqual(bruteBusy(calendars, from, to));
    expect(view.free).toEqual(
      bruteFree(calendars.flat(), from, to, {
        minDuration: s.minDurationMinutes,
        buffer: s.bufferMinutes,
        hours,
      }),
    );
    expect(opaque.busy).toEqual(view.busy.map(({ start, end }) => ({ start, end })));
    expect(opaque.free).toEqual(
      bruteFree(calendars.flat(), from, to, { minDuration: s.minDurationMinutes, buffer: 0 }),
    );
    expect(view.calendars_merged).toBe(calendars.length);
  });

  property('isSlotFree finds exactly the events and holds that cover a minute of the slot', scenario, (s) => {
    const { from, to, calendars } = build(s);
    const [events = [], holds = []] = [calendars.slice(1).flat(), calendars[0]];
    const slot = { start: from, end: Math.min(to, from + 90 * MINUTE) };
    const result = isSlotFree(events, holds, slot);
    const expected = [...bruteConflicts(events, slot), ...bruteConflicts(holds, slot)];

    expect(result.available).toBe(expected.length === 0);
    expect(new Set(result.conflicts.map((c) => c.interval))).toEqual(new Set(expected));
  });
});
