/**
 * Availability merging at scale: 100,000 busy intervals from 50 calendars merged with source
 * counts, against a plain comparator sort of the same intervals (the floor any merge that sorts
 * objects pays); and free slots for a month with working hours.
 */
import { freeSlots } from '../lambdas/core/availability/free-slots.js';
import { mergeWithSources } from '../lambdas/core/availability/merge-with-sources.js';
import type { Interval } from '../lambdas/core/calendar/busy-intervals.js';
import { compare, measure, reportFigure, reportRatio } from './harness.js';

const CALENDARS = 50;
const INTERVALS = 100_000;
const FROM = Date.parse('2026-01-01T00:00:00Z');
const TO = Date.parse('2027-01-01T00:00:00Z');
const MINUTE = 60_000;

/** A small seeded generator (mulberry32), so every run merges the same calendars. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * `INTERVALS` events on whole minutes, round-robin over the calendars. `office`: 15 minutes to
 * 2 hours, starting 08:00–18:00 UTC on weekdays of 2026, so the union is a few blocks a day.
 * `sparse`: 5 to 60 minutes anywhere in 20 years, so about half of the intervals start a block
 * of their own (the most output, the hardest case for the sweep).
 */
function calendars(kind: 'office' | 'sparse'): { byCalendar: Interval[][]; to: number } {
  const next = random(2026);
  const byCalendar: Interval[][] = Array.from({ length: CALENDARS }, () => []);
  const to = kind === 'office' ? TO : Date.parse('2046-01-01T00:00:00Z');
  const days = (to - FROM) / 86_400_000;
  for (let i = 0; i < INTERVALS; i++) {
    let start: number;
    let length: number;
    if (kind === 'office') {
      let day: number;
      do day = Math.floor(next() * days);
      while (new Date(FROM + day * 86_400_000).getUTCDay() % 6 === 0);
      start = FROM + day * 86_400_000 + (8 * 60 + Math.floor(next() * 600)) * MINUTE;
      length = (1 + Math.floor(next() * 8)) * 15 * MINUTE;
    } else {
      start = FROM + Math.floor(next() * days * 1440) * MINUTE;
      length = (5 + Math.floor(next() * 56)) * MINUTE;
    }
    byCalendar[i % CALENDARS]!.push({ start, end: start + length });
  }
  return { byCalendar, to };
}

async function compareMerge(kind: 'office' | 'sparse'): Promise<void> {
  const { byCalendar, to } = calendars(kind);
  const flat = byCalendar.flat();
  let blocks = 0;
  const merged = await compare(
    {
      name: 'mergeWithSources',
      fn: () => {
        blocks = mergeWithSources(byCalendar, FROM, to).length;
      },
    },
    { name: 'copy + sort by start', fn: () => flat.slice().sort((a, b) => a.start - b.start) },
    { rounds: 5, runs: 30, warmup: 3 },
  );
  reportRatio(`merge 100,000 intervals from 50 calendars (${kind}, ${blocks} blocks)`, merged, {
    kind: 'slowdown',
    value: 2,
  });
}

export async function run(): Promise<void> {
  await compareMerge('office');
  await compareMerge('sparse');

  // Free slots for March 2026, 09:00–17:30 in New York (across the DST change), 10-minute buffer:
  // one calendar (about 8 events a working day) and all 50 calendars' events together.
  const month = {
    from: Date.parse('2026-03-01T00:00:00-05:00'),
    to: Date.parse('2026-04-01T00:00:00-04:00'),
  };
  const inMonth = (i: Interval) => i.start >= month.from && i.end <= month.to;
  const office = calendars('office').byCalendar;
  const workingHours = { start: '09:00', end: '17:30', zone: 'America/New_York' };
  for (const [label, events] of [
    ['one calendar', office[0]!.filter(inMonth)],
    ['50 calendars', office.flat().filter(inMonth)],
  ] as const) {
    let slots = 0;
    const sample = await measure(
      'freeSlots',
      () => {
        slots = freeSlots(events, month.from, month.to, { workingHours, bufferMinutes: 10 }).length;
      },
      { runs: 30, warmup: 5, inner: 5 },
    );
    reportFigure(
      `free slots for a month with working hours, ${label} (${events.length} events → ${slots} slots)`,
      `median ${sample.medianMs.toFixed(3)} ms, p90 ${sample.p90Ms.toFixed(3)} ms`,
    );
  }
}
