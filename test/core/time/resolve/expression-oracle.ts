/**
 * Property checks of resolve_datetime's zone, business-day and named-period forms against an
 * independent reference (test/fixtures/time_expressions_reference.py: datetime, dateutil and
 * zoneinfo). Cases are drawn with fast-check, resolved here, and sent to Python in one batch per
 * family. Used by zone-business-period.oracle.test.ts (a few hundred cases) and by
 * scripts/time-expressions-oracle.ts (a long run).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import {
  type ResolvedDatetime,
  resolveDatetime,
} from '../../../../lambdas/core/time/resolve/resolve-datetime.js';
import { ZONE_ABBREVIATIONS } from '../../../../lambdas/core/time/resolve/zone-abbreviations.js';
import { PYTHON } from '../../../support/system-parts.js';
import { frozenAt } from './helpers.js';

const SCRIPT = fileURLToPath(new URL('../../../fixtures/time_expressions_reference.py', import.meta.url));

// Zones with DST, half- and quarter-hour offsets and negative DST (Dublin), whose rules did not
// change between the runtime's ICU tzdata and the system's in the years drawn.
const ZONES = [
  'America/New_York',
  'America/Los_Angeles',
  'America/St_Johns',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Dublin',
  'Asia/Jerusalem',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Tokyo',
  'Australia/Adelaide',
  'Australia/Lord_Howe',
  'Pacific/Auckland',
  'Pacific/Chatham',
];
const zones = fc.constantFrom(...ZONES);
const references = fc
  .integer({ min: Date.UTC(2012, 0, 1) / 1000, max: Date.UTC(2037, 11, 1) / 1000 })
  .map((s) => new Date(s * 1000).toISOString());
// Instants within 14 hours of a quarter's first midnight (UTC), so some zone is just before or
// just after it: where "Q3" without a year changes meaning.
const quarterEdges = fc
  .record({
    year: fc.integer({ min: 2012, max: 2036 }),
    month: fc.constantFrom(1, 4, 7, 10),
    minutes: fc.integer({ min: -14 * 60, max: 14 * 60 }),
  })
  .map(({ year, month, minutes }) => new Date(Date.UTC(year, month - 1, 1) + minutes * 60_000).toISOString());
const pad = (n: number) => String(n).padStart(2, '0');

interface Case {
  expression: string;
  reference: string;
  timezone: string;
  weekend?: Array<'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun'>;
  locale?: string;
  /** What the Python reference is asked. */
  oracle: Record<string, unknown>;
}

export interface Family {
  name: string;
  cases: fc.Arbitrary<Case>;
  /** A description of the mismatch, or null when our answer agrees with the reference's. */
  check(ours: ResolvedDatetime, reference: Record<string, unknown>, testCase: Case): string | null;
}

const readings = (ours: ResolvedDatetime) => [
  ours.resolved_utc,
  ...(ours.alternatives ?? []).map((a) => a.resolved_utc),
];
const sameInstant = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && Date.parse(a) === Date.parse(b);

/** "15:00 Tokyo time", "tomorrow at 09:30 in new york", "2027-03-14 at 02:30 America/Chicago", "3:05 PST". */
const zoneFamily: Family = {
  name: 'zone abbreviations and cities',
  cases: fc.oneof(
    fc
      .record({
        reference: references,
        timezone: zones,
        zone: zones,
        day: fc.oneof(
          fc.constantFrom('today', 'tomorrow'),
          fc
            .date({ min: new Date('2012-01-01'), max: new Date('2037-12-01'), noInvalidDate: true })
            .map((d) => d.toISOString().slice(0, 10)),
        ),
        hour: fc.integer({ min: 0, max: 23 }),
        minute: fc.integer({ min: 0, max: 59 }),
        form: fc.constantFrom('city time', 'in city', 'iana'),
      })
      .map(({ reference, timezone, zone, day, hour, minute, form }) => {
        const city = zone.slice(zone.lastIndexOf('/') + 1).replace(/_/g, ' ');
        const words = form === 'city time' ? `${city} time` : form === 'in city' ? `in ${city}` : zone;
        const time = `${pad(hour)}:${pad(minute)}`;
        const dayWords = day.includes('-') ? `${day} at` : day === 'today' ? '' : `${day} at`;
        return {
          expression: `${dayWords} ${time} ${words}`.trim(),
          reference,
          timezone,
          oracle: { kind: 'zone', reference, caller: timezone, zone, day, time },
        };
      }),
    fc
      .record({
        reference: references,
        timezone: zones,
        abbreviation: fc.constantFrom(...Object.keys(ZONE_ABBREVIATIONS)),
        day: fc.date({ min: new Date('2025-01-01'), max: new Date('2030-12-01'), noInvalidDate: true }),
        hour: fc.integer({ min: 0, max: 23 }),
        minute: fc.integer({ min: 0, max: 59 }),
      })
      .map(({ reference, timezone, abbreviation, day, hour, minute }) => {
        const date = day.toISOString().slice(0, 10);
        const time = `${pad(hour)}:${pad(minute)}`;
        return {
          expression: `${date} at ${time} ${abbreviation}`,
          reference,
          timezone,
          oracle: {
            kind: 'zone',
            reference,
            abbreviation,
            day: date,
            time,
            clocks: ZONE_ABBREVIATIONS[abbreviation]![0]!.clocks,
          },
        };
      }),
  ),
  check(ours, reference, testCase) {
    if (typeof reference.utc === 'string') {
      return sameInstant(ours.resolved_utc, reference.utc) ? null : `expected ${reference.utc}`;
    }
    // An abbreviation: the chosen offset is one tzdata gives it that year, every offset tzdata gives
    // it that day is among the readings, and so is the reading on its zone's clocks.
    const wall = Date.parse(`${reference.wall as string}Z`);
    const chosen = (wall - Date.parse(ours.resolved_utc)) / 60_000;
    if (!(reference.year_offsets as number[]).includes(chosen))
      return `chose offset ${chosen} min, not one tzdata gives ${testCase.oracle.abbreviation}`;
    const all = readings(ours);
    for (const offset of reference.offsets as number[]) {
      const expected = new Date(wall - offset * 60_000).toISOString();
      if (!all.some((r) => sameInstant(r, expected)))
        return `no reading at offset ${offset} min (${expected})`;
    }
    // The clocks' reading, when they show another offset at that instant ("PST" in July); a PST
    // that picks the second 01:16 of a fall-back night agrees with the clocks and adds nothing.
    const clocksAgree = (reference.clocks_agree as Record<string, boolean>)[String(chosen)];
    if (!clocksAgree && !all.some((r) => sameInstant(r, reference.clocks_utc)))
      return `no reading on the zone's clocks (${reference.clocks_utc})`;
    return null;
  },
};

const WEEKENDS: Array<{ days: Case['weekend']; iso: number[] }> = [
  { days: ['sat', 'sun'], iso: [6, 7] },
  { days: ['fri', 'sat'], iso: [5, 6] },
  { days: ['fri'], iso: [5] },
  { days: ['sun'], iso: [7] },
  { days: ['thu', 'fri'], iso: [4, 5] },
];
// CLDR's weekends for two locales, as the runtime's ICU reports them.
const LOCALES: Array<{ locale: string; iso: number[] }> = [
  { locale: 'he-IL', iso: [5, 6] },
  { locale: 'en-US', iso: [6, 7] },
];

/** "in 7 business days", "12 working days ago", "next business day", with various weekends. */
const businessFamily: Family = {
  name: 'business days',
  cases: fc
    .record({
      reference: references,
      timezone: zones,
      n: fc.integer({ min: -40, max: 40 }).filter((n) => n !== 0),
      form: fc.constantFrom('offset', 'from now', 'adjacent'),
      weekend: fc.oneof(fc.constantFrom(...WEEKENDS), fc.constantFrom(...LOCALES), fc.constant(undefined)),
    })
    .map(({ reference, timezone, n, form, weekend }) => {
      const adjacent = form === 'adjacent';
      const count = adjacent ? Math.sign(n) : n;
      const expression = adjacent
        ? `${count > 0 ? 'next' : 'previous'} business day`
        : count > 0
          ? form === 'from now'
            ? `${count} working days from now`
            : `in ${count} business days`
          : `${-count} business days ago`;
      const iso = weekend?.iso ?? [6, 7];
      return {
        expression,
        reference,
        timezone,
        ...(weekend && 'days' in weekend ? { weekend: weekend.days } : {}),
        ...(weekend && 'locale' in weekend ? { locale: weekend.locale } : {}),
        oracle: { kind: 'business', reference, zone: timezone, n: count, weekend: iso, keep_time: !adjacent },
      };
    }),
  check: (ours, reference) =>
    sameInstant(ours.resolved_utc, reference.utc) ? null : `expected ${reference.utc as string}`,
};

const YEAR_WORDS: Record<number, string> = { [-1]: 'last year', 0: 'this year', 1: 'next year' };
const ORDINAL_WORDS = ['first', 'second', 'third', 'fourth'];

/** "Q3 2027", "2027-Q1", "H2", "second quarter of next year", "end of Q4", "the week after next". */
const periodFamily: Family = {
  name: 'quarters, halves and the week after next',
  cases: fc
    .record({
      reference: fc.oneof(references, quarterEdges),
      timezone: zones,
      unit: fc.constantFrom('q', 'h', 'week_after_next'),
      index: fc.integer({ min: 1, max: 4 }),
      year: fc.oneof(
        fc.integer({ min: 2001, max: 2036 }),
        fc.constantFrom(-1, 0, 1).map((s) => ({ shift: s })),
        fc.constant(null),
      ),
      words: fc.constantFrom('short', 'iso', 'ordinal'),
      boundary: fc.constantFrom(null, null, 'start', 'end'),
    })
    .map(({ reference, timezone, unit, index: drawn, year, words, boundary }) => {
      const index = unit === 'h' ? ((drawn - 1) % 2) + 1 : drawn;
      const prefix = boundary === null ? '' : `${boundary} of `;
      let expression: string;
      if (unit === 'week_after_next') expression = `${prefix}the week after next`;
      else {
        const yearWords = year === null ? '' : typeof year === 'number' ? `${year}` : YEAR_WORDS[year.shift]!;
        const letter = unit.toUpperCase();
        expression =
          words === 'iso' && typeof year === 'number'
            ? `${prefix}${year}-${letter}${index}`
            : words === 'ordinal'
              ? `${prefix}${ORDINAL_WORDS[index - 1]} ${unit === 'q' ? 'quarter' : 'half'}${yearWords ? ` of ${yearWords}` : ''}`
              : `${prefix}${letter}${index} ${yearWords}`.trim();
      }
      return {
        expression,
        reference,
        timezone,
        oracle: {
          kind: 'period',
          reference,
          zone: timezone,
          unit,
          index,
          year: typeof year === 'number' ? year : null,
          year_shift: year !== null && typeof year === 'object' ? year.shift : null,
          boundary,
        },
      };
    }),
  check(ours, reference) {
    if (!sameInstant(ours.resolved_utc, reference.utc)) return `expected ${reference.utc as string}`;
    const end = ours.range?.end_utc ?? null;
    if (reference.end_utc === null) return end === null ? null : `expected no range, got one ending ${end}`;
    return sameInstant(end, reference.end_utc)
      ? null
      : `expected the range to end ${reference.end_utc as string}, got ${end}`;
  },
};

export const FAMILIES: readonly Family[] = [zoneFamily, businessFamily, periodFamily];

export interface FamilyRun {
  family: string;
  cases: number;
  mismatches: Array<{ expression: string; reference: string; timezone: string; problem: string }>;
}

/** Draws `runs` cases of a family (from `seed`), resolves them, and compares with Python. */
export function runFamily(family: Family, runs: number, seed: number): FamilyRun {
  const cases = fc.sample(family.cases, { numRuns: runs, seed });
  const run = spawnSync(PYTHON, [SCRIPT], {
    input: JSON.stringify(cases.map((c) => c.oracle)),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`time_expressions_reference.py failed: ${run.stderr}`);
  const expected = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
  const mismatches: FamilyRun['mismatches'] = [];
  cases.forEach((testCase, i) => {
    const { expression, reference, timezone, weekend, locale } = testCase;
    let problem: string | null;
    try {
      const ours = resolveDatetime(frozenAt(reference), { expression, timezone, weekend, locale });
      problem = family.check(ours, expected[i]!, testCase);
      if (problem !== null) problem += ` (resolved ${ours.resolved_utc})`;
    } catch (error) {
      problem = `threw ${(error as Error).message.slice(0, 160)}`;
    }
    if (problem !== null) mismatches.push({ expression, reference, timezone, problem });
  });
  return { family: family.name, cases: cases.length, mismatches };
}
