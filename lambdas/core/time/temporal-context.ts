import type { TimeDeps } from '../ports/index.js';
import { nextOffsetTransition } from './dst.js';
import { formatInstant, formatOffset, formatUtc } from './instants.js';
import { DateTime } from './luxon.js';
import { effectiveZone } from './zones.js';

export interface TemporalContext {
  utc: string;
  local: string;
  timezone: string;
  timezone_configured: boolean;
  utc_offset: string;
  dst_active: boolean;
  day_of_week: string;
  iso_week: number;
  is_weekday: boolean;
  day_of_year: number;
  next_dst_transition?: string;
  next_dst_direction?: 'spring-forward' | 'fall-back';
  days_until_dst_transition?: number;
}

/**
 * Where and when "now" is: the current instant in UTC and in the zone, with calendar facts and
 * the next DST transition (omitted for zones without one in the next 400 days).
 *
 * `dst_active` uses luxon's `isInDST` (offset above the zone's smaller of January/July offsets),
 * which is right in both hemispheres — comparing with January 1st alone is wrong for Sydney.
 *
 * @example
 * getTemporalContext({ clock, defaultTimezone: 'America/New_York' }, {}).day_of_week; // 'Friday'
 */
export function getTemporalContext(
  deps: TimeDeps,
  input: { timezone?: string | undefined },
): TemporalContext {
  const { zone } = effectiveZone(input.timezone, deps.defaultTimezone);
  const nowMs = deps.clock.now().getTime();
  const local = DateTime.fromMillis(nowMs, { zone });
  const context: TemporalContext = {
    utc: formatUtc(local),
    local: formatInstant(local),
    timezone: zone.name,
    // The deployment's own setting, whatever zone this call asked for: false means "ask the user".
    timezone_configured: deps.defaultTimezone !== undefined,
    utc_offset: formatOffset(local.offset),
    dst_active: local.isInDST,
    day_of_week: local.toFormat('cccc', { locale: 'en-US' }),
    iso_week: local.weekNumber,
    is_weekday: local.weekday <= 5,
    day_of_year: local.ordinal,
  };
  const transition = nextOffsetTransition(zone, nowMs);
  if (transition) {
    const at = DateTime.fromMillis(transition.at, { zone });
    context.next_dst_transition = formatUtc(at);
    context.next_dst_direction =
      transition.offsetAfter > transition.offsetBefore ? 'spring-forward' : 'fall-back';
    // Calendar days in the zone, so "Friday → Sunday" is 2 whatever the hour.
    context.days_until_dst_transition = Math.round(at.startOf('day').diff(local.startOf('day'), 'days').days);
  }
  return context;
}
