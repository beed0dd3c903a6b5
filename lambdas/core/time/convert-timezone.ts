import { formatInstant, formatOffset, formatUtc, parseInstant } from './instants.js';
import { requireZone } from './zones.js';

export interface ConvertedTime {
  utc: string;
  local: string;
  timezone: string;
  utc_offset: string;
  dst_active: boolean;
}

/**
 * The same instant seen in another zone. The instant never changes; only its wall clock does.
 *
 * @example
 * convertTimezone({ datetime: '2026-03-15T18:00:00Z', target_timezone: 'America/Los_Angeles' }).local;
 * // '2026-03-15T11:00:00-07:00'
 */
export function convertTimezone(input: { datetime: string; target_timezone: string }): ConvertedTime {
  const zone = requireZone(input.target_timezone, 'target_timezone');
  const local = parseInstant(input.datetime, 'datetime').setZone(zone);
  return {
    utc: formatUtc(local),
    local: formatInstant(local),
    timezone: zone.name,
    utc_offset: formatOffset(local.offset),
    dst_active: local.isInDST,
  };
}
