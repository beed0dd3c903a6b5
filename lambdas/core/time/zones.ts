import { closest, distance } from 'fastest-levenshtein';
import { IANAZone } from 'luxon';
import { DomainError } from '../errors.js';

let canonicalZoneNames: readonly string[] | undefined;
// Names already found valid. luxon's IANAZone.isValidZone builds a new Intl.DateTimeFormat on
// every call (~50 µs). Keys are lower-cased valid names only, so the set stays within the ~600 zones.
const validZoneNames = new Set<string>();

function zoneNames(): readonly string[] {
  canonicalZoneNames ??= [...Intl.supportedValuesOf('timeZone'), 'UTC'];
  return canonicalZoneNames;
}

/**
 * Up to `limit` IANA names closest to a misspelt one, best first. Compares both the whole name
 * and the city part, so "New_Yrok" and "America/New_Yrok" both find America/New_York.
 */
export function suggestZones(input: string, limit = 3): string[] {
  const needle = input.trim().toLowerCase().replace(/\s+/g, '_');
  const scored = zoneNames().map((name) => {
    const lower = name.toLowerCase();
    const city = lower.slice(lower.lastIndexOf('/') + 1);
    const score = Math.min(distance(needle, lower), distance(needle.slice(needle.lastIndexOf('/') + 1), city));
    return { name, score };
  });
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  const best = scored.slice(0, limit).map((s) => s.name);
  return best.length > 0 ? best : [closest(needle, [...zoneNames()])];
}

/**
 * Validates an IANA zone name and returns luxon's zone for it.
 * Throws INVALID_TIMEZONE with the closest real names when the name is unknown.
 *
 * @example
 * requireZone('Europe/London').name; // 'Europe/London'
 */
export function requireZone(name: string, field = 'timezone'): IANAZone {
  const trimmed = name.trim();
  // Fixed offsets such as "+05:00" are not zones: they carry no DST rules, so we refuse them here.
  const key = trimmed.toLowerCase();
  if (validZoneNames.has(key)) return IANAZone.create(trimmed);
  if (trimmed.length > 0 && IANAZone.isValidZone(trimmed)) {
    validZoneNames.add(key);
    return IANAZone.create(trimmed);
  }
  const suggestions = trimmed.length > 0 ? suggestZones(trimmed) : ['UTC', 'America/New_York', 'Europe/London'];
  throw new DomainError(
    'INVALID_TIMEZONE',
    `Unknown time zone "${name}" in "${field}". Use an IANA name such as ${suggestions.map((s) => `"${s}"`).join(', ')}.`,
    { field, suggestions },
  );
}

/**
 * The zone a tool works in: the explicit one if given, else the configured default, else UTC.
 * `configured` reports whether anything but the UTC fallback was used.
 */
export function effectiveZone(
  explicit: string | undefined,
  defaultTimezone: string | undefined,
): { zone: IANAZone; configured: boolean } {
  if (explicit !== undefined) return { zone: requireZone(explicit), configured: true };
  if (defaultTimezone !== undefined) return { zone: requireZone(defaultTimezone), configured: true };
  return { zone: IANAZone.create('UTC'), configured: false };
}
