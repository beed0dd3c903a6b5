import type { DateTime, Zone } from '../luxon.js';
import type { AmbiguityFamily, ReadingRules } from './ambiguity.js';
import { SATURDAY_SUNDAY, type Weekend } from './business-days.js';
import { type WallClock, wallClockOf } from './wall-clock.js';

/**
 * What every parser resolves against: the zone, the reference instant and its wall clock. With a
 * zone named in the expression ("tomorrow at 9am London time"), the words' wall clock is placed in
 * that zone while "today" is still the caller's (see docs/time-expressions.md).
 */
export interface ResolveContext {
  zone: Zone;
  /** The reference instant, expressed in `zone`. */
  reference: DateTime<true>;
  /** The zone whose calendar relative words count on (`zone` unless the expression named another). */
  calendarZone: Zone;
  /** The reference's wall clock in `calendarZone`. */
  now: WallClock;
  /** `now` at 00:00: the reference's calendar date. */
  today: WallClock;
  /** The family to read the other way (see ambiguity.ts); undefined for Meridian's own reading. */
  alternate?: AmbiguityFamily;
  /** The days that are not business days (ISO weekdays), for "next business day". */
  weekend: Weekend;
  /** Filled by the parsers: the families the text was open to, with both rules in words. */
  notes: Map<AmbiguityFamily, ReadingRules>;
}

/**
 * Builds the context for one resolution.
 *
 * @example
 * resolveContext(DateTime.fromISO('2026-02-20T15:30:00Z'), IANAZone.create('America/New_York')).today.day; // 20
 */
export function resolveContext(
  reference: DateTime<true>,
  zone: Zone,
  alternate?: AmbiguityFamily,
  weekend: Weekend = SATURDAY_SUNDAY,
  calendarZone: Zone = zone,
): ResolveContext {
  const local = reference.setZone(zone) as DateTime<true>;
  const now = wallClockOf(reference.setZone(calendarZone) as DateTime<true>);
  return {
    zone,
    calendarZone,
    reference: local,
    now,
    today: now.startOf('day'),
    alternate,
    weekend,
    notes: new Map(),
  };
}
