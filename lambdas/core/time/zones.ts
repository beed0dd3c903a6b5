import { closest, distance } from 'fastest-levenshtein';
import { DomainError } from '../errors.js';
import { echo, MAX_ZONE_NAME_LENGTH } from '../input-limits.js';
import { IntlOffsetZone } from './intl-offset-zone.js';
import { IANAZone } from './luxon.js';

// ICU (and so Intl.supportedValuesOf) still lists some zones under their pre-rename IANA names.
// Suggest the names IANA uses today; both spellings are accepted as input.
const CURRENT_NAMES: Record<string, string> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Rangoon': 'Asia/Yangon',
  'Europe/Kiev': 'Europe/Kyiv',
  'America/Godthab': 'America/Nuuk',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Truk': 'Pacific/Chuuk',
  'Pacific/Ponape': 'Pacific/Pohnpei',
};

let canonicalZoneNames: readonly string[] | undefined;

/** Every IANA zone name the runtime knows, as IANA spells it today, plus UTC. */
export function zoneNames(): readonly string[] {
  canonicalZoneNames ??= [
    ...new Set(
      [...Intl.supportedValuesOf('timeZone'), 'UTC'].map((name) => {
        const current = CURRENT_NAMES[name];
        return current !== undefined && IANAZone.isValidZone(current) ? current : name;
      }),
    ),
  ];
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
    const score = Math.min(
      distance(needle, lower),
      distance(needle.slice(needle.lastIndexOf('/') + 1), city),
    );
    return { name, score };
  });
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  const best = scored.slice(0, limit).map((s) => s.name);
  return best.length > 0 ? best : [closest(needle, [...zoneNames()])];
}

// IANAZone.isValidZone builds a new Intl.DateTimeFormat on every call (about half the cost of a
// resolve_datetime call), so names that passed are remembered. Bounded: case variants of a valid
// name are valid too, and a caller could send many.
const validNames = new Set<string>();
const MAX_VALID_NAMES = 1024;

// ICU accepts "+05:00" as a time zone (ECMA-402 offset zones); it is not an IANA name and has no DST rules.
const OFFSET_NAME = /^[+\-\u2212]/;

function isKnownZone(name: string): boolean {
  if (validNames.has(name)) return true;
  if (OFFSET_NAME.test(name)) return false;
  if (!IANAZone.isValidZone(name)) return false;
  if (validNames.size >= MAX_VALID_NAMES) validNames.clear();
  validNames.add(name);
  return true;
}

/** "america/new_york" → "America/New_York": zone names are matched case-insensitively, reported as IANA spells them. */
function properCase(name: string): string {
  // Most names arrive spelt as ICU's own id, which it then resolves to unchanged; such a name is
  // no other zone's case variant, so it is its own proper case. That answers without listing
  // every zone (Intl.supportedValuesOf and the renamed zones' checks: 4% of a cold start's
  // first time-tool call, instruction-counted); a name in another case, or a link, is looked up.
  if (resolvedZoneId(name) === name) return name;
  const lower = name.toLowerCase();
  return zoneNames().find((candidate) => candidate.toLowerCase() === lower) ?? name;
}

/** The id ICU resolves a valid zone name to: canonical, in its own case ('europe/paris' → 'Europe/Paris'). */
function resolvedZoneId(name: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
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
  // No IANA name is this long, and fuzzy matching costs time in proportion to the length.
  const plausible = trimmed.length > 0 && trimmed.length <= MAX_ZONE_NAME_LENGTH;
  // Fixed offsets such as "+05:00" are not zones: they carry no DST rules, so we refuse them here.
  if (plausible && isKnownZone(trimmed)) return IntlOffsetZone.of(properCase(trimmed));
  const suggestions = plausible ? suggestZones(trimmed) : ['UTC', 'America/New_York', 'Europe/London'];
  throw new DomainError(
    'INVALID_TIMEZONE',
    `Unknown time zone ${echo(name)} in "${field}". Use an IANA name such as ${suggestions.map((s) => `"${s}"`).join(', ')}.`,
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
  return { zone: IntlOffsetZone.of('UTC'), configured: false };
}
