import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  attributeTime,
  countsOnTimesheet,
  roundMinutes,
  summarise,
  type TimesheetEntry,
} from '../../../lambdas/core/rules/timesheet.js';

const RUNS = Number(process.env.MERIDIAN_FUZZ_RUNS ?? 300);
const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 23, 8);

const entry = (id: string, project: string | null, startMin: number, endMin: number, calendar = 'native/a') =>
  ({
    event_id: id,
    calendar_id: calendar,
    summary: id,
    project_id: project,
    startMs: T0 + startMin * MINUTE,
    endMs: T0 + endMin * MINUTE,
  }) satisfies TimesheetEntry;

const noProjects = { projects: new Map(), zone: 'UTC' };

describe('attributeTime', () => {
  it('gives overlapping time to the event that started last, so no minute counts twice', () => {
    const segments = attributeTime([entry('long', 'a', 0, 120), entry('interrupt', 'b', 30, 60)]);

    expect(
      segments.map((s) => [s.entry.event_id, (s.startMs - T0) / MINUTE, (s.endMs - T0) / MINUTE]),
    ).toEqual([
      ['long', 0, 30],
      ['interrupt', 30, 60],
      ['long', 60, 120],
    ]);
  });

  it('breaks a tie on start by the shorter event, then the lower id', () => {
    const [first] = attributeTime([entry('b', 'a', 0, 60), entry('a', 'a', 0, 60), entry('c', 'a', 0, 90)]);

    expect(first!.entry.event_id).toBe('a');
  });

  it('adds up to the union of the events on random input', () => {
    const spans = fc.array(
      fc.tuple(
        fc.integer({ min: 0, max: 600 }),
        fc.integer({ min: 0, max: 240 }),
        fc.constantFrom('a', 'b', null),
      ),
      { maxLength: 25 },
    );
    fc.assert(
      fc.property(spans, (raw) => {
        const entries = raw.map(([start, length, project], i) =>
          entry(`e${i}`, project, start, start + length),
        );
        const covered = new Set<number>();
        for (const e of entries) for (let m = e.startMs; m < e.endMs; m += MINUTE) covered.add(m);

        const groups = summarise(entries, { ...noProjects, groupBy: 'project' });

        expect(groups.reduce((sum, g) => sum + g.raw_minutes, 0)).toBe(covered.size);
        const segments = attributeTime(entries);
        for (let i = 1; i < segments.length; i++)
          expect(segments[i]!.startMs).toBeGreaterThanOrEqual(segments[i - 1]!.endMs);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('summarise', () => {
  it('groups by project with unclassified time under its own key', () => {
    const groups = summarise([entry('x', 'a', 0, 60), entry('y', null, 60, 90)], {
      ...noProjects,
      groupBy: 'project',
    });

    expect(groups).toEqual([
      { key: 'a', raw_minutes: 60, rounded_minutes: 60, billable_minutes: 0, events: 1 },
      { key: 'unclassified', raw_minutes: 30, rounded_minutes: 30, billable_minutes: 0, events: 1 },
    ]);
  });

  it('rounds each event by its project and counts billable projects', () => {
    const projects = new Map([
      ['a', { rounding: { minutes: 15, mode: 'up' as const }, billable: true }],
      ['b', { rounding: { minutes: 6, mode: 'nearest' as const }, billable: false }],
    ]);
    const groups = summarise([entry('x', 'a', 0, 7), entry('y', 'a', 10, 41), entry('z', 'b', 50, 58)], {
      projects,
      zone: 'UTC',
      groupBy: 'project',
    });

    expect(groups).toEqual([
      { key: 'a', raw_minutes: 38, rounded_minutes: 15 + 45, billable_minutes: 60, events: 2 },
      { key: 'b', raw_minutes: 8, rounded_minutes: 6, billable_minutes: 0, events: 1 },
    ]);
  });

  it('gives a 23-hour and a 25-hour day their true length in the asked zone', () => {
    const day = (from: string, to: string): TimesheetEntry => ({
      event_id: from,
      calendar_id: 'native/a',
      summary: 'all day shift',
      project_id: 'a',
      startMs: Date.parse(from),
      endMs: Date.parse(to),
    });
    const groups = summarise(
      [
        // New York: 8 March 2026 springs forward (23 h), 1 November 2026 falls back (25 h).
        day('2026-03-08T00:00:00-05:00', '2026-03-09T00:00:00-04:00'),
        day('2026-11-01T00:00:00-04:00', '2026-11-02T00:00:00-05:00'),
      ],
      { ...noProjects, zone: 'America/New_York', groupBy: 'day' },
    );

    expect(groups.map((g) => [g.key, g.raw_minutes])).toEqual([
      ['2026-03-08', 23 * 60],
      ['2026-11-01', 25 * 60],
    ]);
  });

  it('splits time at local midnight by day and groups ISO weeks', () => {
    const late = entry('late', 'a', 15 * 60, 17 * 60); // 23:00–01:00 UTC, Monday into Tuesday
    expect(summarise([late], { ...noProjects, groupBy: 'day' }).map((g) => [g.key, g.raw_minutes])).toEqual([
      ['2026-11-23', 60],
      ['2026-11-24', 60],
    ]);
    expect(summarise([late], { ...noProjects, groupBy: 'week' }).map((g) => g.key)).toEqual(['2026-W48']);
  });

  it('groups by calendar', () => {
    const groups = summarise([entry('x', 'a', 0, 30, 'native/a'), entry('y', 'a', 30, 45, 'google/b')], {
      ...noProjects,
      groupBy: 'calendar',
    });

    expect(groups.map((g) => [g.key, g.raw_minutes])).toEqual([
      ['google/b', 15],
      ['native/a', 30],
    ]);
  });
});

describe('countsOnTimesheet', () => {
  const base = { status: 'confirmed', transparency: 'opaque', response: 'accepted', allDay: false };

  it.each([
    ['declined', { ...base, response: 'declined' }, false],
    ['cancelled', { ...base, status: 'cancelled' }, false],
    ['transparent', { ...base, transparency: 'transparent' }, false],
    ['all-day', { ...base, allDay: true }, false],
    ['tentative', { ...base, response: 'tentative' }, true],
  ])('counts a %s event: %s', (_, event, counts) => {
    expect(countsOnTimesheet(event, false)).toBe(counts);
  });

  it('counts all-day events when asked', () => {
    expect(countsOnTimesheet({ ...base, allDay: true }, true)).toBe(true);
  });
});

describe('roundMinutes', () => {
  it.each([
    [7, 15, 'up', 15],
    [15, 15, 'up', 15],
    [16, 15, 'up', 30],
    [7, 15, 'nearest', 0],
    [8, 15, 'nearest', 15],
    [0, 15, 'up', 0],
  ] as const)('rounds %i minutes to %i (%s) as %i', (minutes, unit, mode, expected) => {
    expect(roundMinutes(minutes, { minutes: unit, mode })).toBe(expected);
  });
});
