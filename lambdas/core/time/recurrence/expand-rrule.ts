import { DomainError } from '../../errors.js';
import { WorkBudget } from '../../work-budget.js';
import { MAX_INSTANT_MS, MIN_INSTANT_MS, parseInstant } from '../instants.js';
import { RFC_5545, wallClockToInstant } from '../wall-clock-to-instant.js';
import { requireZone } from '../zones.js';
import { fastForwardStart } from './fast-forward.js';
import { assertDaysCanOccur, pinDtstartDefaults, walkWallClock } from './floating-walk.js';
import { parseRule } from './parse-rule.js';
import { assertTimesReachable } from './reachable-times.js';
import { formatUtcMs, formatWithOffset, parseWallClock } from './wall-clock-text.js';
import { ZoneOffsets } from './zone-offsets.js';

/** Instances returned when the caller gives no `count`. */
export const DEFAULT_PAGE_SIZE = 100;
/** Most instances one call returns, whatever `count` asks for. */
export const MAX_INSTANCES = 1000;
/** Longest instance accepted: one leap year. */
export const MAX_DURATION_MINUTES = 527_040;

const DAY_MS = 86_400_000;

/**
 * The smallest and largest UTC offsets a zone has within a day of an instant. An instance's wall
 * clock is its instant plus the offset then, so windows given as instants are widened by these in
 * wall-clock space (then every candidate is checked as a real instant). Widening by the zone's
 * own offsets, not by the ±16 h any zone could have, keeps a SECONDLY rule from walking 16 hours
 * of seconds past the window; a day either side covers a transition at the window's edge
 * (Samoa's 24-hour jump included).
 */
function offsetRange(offsets: ZoneOffsets, epochMs: number): { min: number; max: number } {
  const seen = [epochMs - DAY_MS, epochMs, epochMs + DAY_MS].map((ms) =>
    offsets.offsetAt(Math.min(Math.max(ms, MIN_INSTANT_MS), MAX_INSTANT_MS)),
  );
  return { min: Math.min(...seen), max: Math.max(...seen) };
}

export interface ExpandRruleInput {
  /** RFC 5545 RRULE value; an "RRULE:" prefix and any letter case are accepted. */
  rrule: string;
  /** Local wall-clock start, no offset: "2026-03-01T09:00:00" (seconds optional). */
  dtstart: string;
  /** IANA zone that dtstart, exdates and the rule's wall clock are in. */
  timezone: string;
  /** Length of each instance in elapsed minutes. @default 60 */
  durationMinutes?: number;
  /** Most instances to return (1…MAX_INSTANCES). @default DEFAULT_PAGE_SIZE */
  count?: number;
  /** Local wall-clock starts (same form as dtstart) to leave out. */
  exdates?: readonly string[];
  /** RFC 3339 instant: only instances starting at or after it. */
  after?: string;
  /** RFC 3339 instant: only instances starting at or before it. */
  before?: string;
  /** Work allowance, shared when one call expands several pages. @default a fresh {@link recurrenceBudget} */
  budget?: WorkBudget;
}

export interface ExpandedInstance {
  /** Start, RFC 3339 in UTC ("+00:00"). */
  start: string;
  /** start + duration, RFC 3339 in UTC. */
  end: string;
  /** The start as the zone's wall clock shows it, with its offset. */
  localStart: string;
}

export interface ExpandRruleResult {
  instances: ExpandedInstance[];
  /** True when more instances exist after the last one returned. */
  truncated: boolean;
  /** When truncated: the start of the next instance; pass it as `after` to get the next page. */
  nextAfter?: string;
  timezone: string;
}

function checkWholeNumber(
  value: number,
  min: number,
  max: number,
  field: string,
  code: 'OUT_OF_RANGE' | 'INVALID_DURATION',
) {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new DomainError(code, `"${field}" must be a whole number from ${min} to ${max}; got ${value}.`, {
      field,
    });
  }
}

/**
 * The work allowance for expanding one rule in one call. A rule whose dates are rare (Feb 29 on
 * a Monday, every second) can need millions of periods examined per instance; it is refused with
 * WORK_LIMIT_EXCEEDED instead of holding the event loop.
 */
export function recurrenceBudget(rrule: string): WorkBudget {
  return new WorkBudget(
    `Expanding "${rrule}"`,
    'Ask for a narrower window (after/before) or fewer instances, or use a coarser FREQ whose periods contain the dates (e.g. FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29 instead of FREQ=SECONDLY with the same BYMONTH/BYMONTHDAY).',
  );
}

function windowBound(text: string | undefined, field: string): number | undefined {
  return text === undefined ? undefined : parseInstant(text, field).toMillis();
}

/**
 * Expands an RRULE anchored at a local DTSTART in an IANA zone into concrete instances, in
 * start order, duplicates merged (RFC 5545 §3.8.5.3). Instances are computed on the wall clock
 * and then placed in the zone: a wall time in a spring-forward gap uses the offset before the
 * gap (02:30 on New York's spring-forward day is 03:30 EDT), a repeated fall-back time is its
 * first occurrence. The result depends on no host setting (TZ included).
 *
 * Without COUNT in the rule, a window (`after`) far from DTSTART is reached directly, not by
 * walking every earlier instance; with COUNT the walk starts at DTSTART, as counting requires.
 * The work is bounded (see {@link recurrenceBudget}): WORK_LIMIT_EXCEEDED when a rule finds too
 * few instances within it.
 *
 * @example
 * expandRrule({ rrule: 'FREQ=DAILY;COUNT=2', dtstart: '2026-03-07T09:00', timezone: 'America/New_York' })
 *   .instances.map((i) => i.start); // ['2026-03-07T14:00:00+00:00', '2026-03-08T13:00:00+00:00']
 */
export function expandRrule(input: ExpandRruleInput): ExpandRruleResult {
  const zone = requireZone(input.timezone);
  const rule = parseRule(input.rrule);
  const dtstart = parseWallClock(input.dtstart, 'dtstart');
  const durationMinutes = input.durationMinutes ?? 60;
  checkWholeNumber(durationMinutes, 0, MAX_DURATION_MINUTES, 'duration_minutes', 'INVALID_DURATION');
  const limit = input.count ?? DEFAULT_PAGE_SIZE;
  checkWholeNumber(limit, 1, MAX_INSTANCES, 'count', 'OUT_OF_RANGE');
  const after = windowBound(input.after, 'after') ?? Number.NEGATIVE_INFINITY;
  const before = windowBound(input.before, 'before') ?? Number.POSITIVE_INFINITY;
  if (after > before) {
    throw new DomainError(
      'INVALID_INPUT',
      `"after" (${input.after}) is later than "before" (${input.before}): swap them.`,
      {
        field: 'after',
      },
    );
  }
  const offsets = new ZoneOffsets(zone);
  const excluded = new Set(
    (input.exdates ?? []).map((text, i) =>
      wallClockToInstant(parseWallClock(text, `exdates[${i}]`), offsets, RFC_5545),
    ),
  );

  const budget = input.budget ?? recurrenceBudget(input.rrule);
  assertTimesReachable(rule, dtstart);
  assertDaysCanOccur(rule, dtstart, budget);
  const pinned = pinDtstartDefaults(rule, dtstart);
  const end = Math.min(rule.until ?? Number.POSITIVE_INFINITY, before);
  const walkFrom = Number.isFinite(after)
    ? fastForwardStart(pinned, dtstart, after + offsetRange(offsets, after).min)
    : dtstart;
  const walkUntil = Number.isFinite(end) ? end + offsetRange(offsets, end).max : undefined;

  // One more than the page, to know whether the page is the last and where the next begins.
  const wanted = limit + 1;
  const starts = new Set<number>();
  let latest = Number.NEGATIVE_INFINITY;
  // Once `wanted` starts are held, none later than the latest of them can make the page; no wall
  // time past `cutoffWall` maps to an instant at or before it.
  let cutoff = Number.POSITIVE_INFINITY;
  let cutoffWall = Number.POSITIVE_INFINITY;
  walkWallClock(
    pinned,
    walkFrom,
    walkUntil,
    (wall) => {
      if (wall > cutoffWall) return false;
      const start = wallClockToInstant(wall, offsets, RFC_5545);
      if (start >= after && start <= end && start <= cutoff && !excluded.has(start) && !starts.has(start)) {
        starts.add(start);
        if (start > latest) latest = start;
        if (starts.size === wanted) {
          cutoff = latest;
          cutoffWall = cutoff + offsetRange(offsets, cutoff).max;
        }
      }
      return true;
    },
    budget,
  );

  const sorted = [...starts].sort((a, b) => a - b);
  const durationMs = durationMinutes * 60_000;
  const instances = sorted.slice(0, limit).map((start) => ({
    start: formatUtcMs(start),
    end: formatUtcMs(start + durationMs),
    localStart: formatWithOffset(start, offsets.offsetAt(start)),
  }));
  const next = sorted[limit];
  return {
    instances,
    truncated: next !== undefined,
    ...(next === undefined ? {} : { nextAfter: formatUtcMs(next) }),
    timezone: zone.name,
  };
}
