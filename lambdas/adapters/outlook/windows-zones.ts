import windowsZonesJson from 'cldr-core/supplemental/windowsZones.json' with { type: 'json' };
import { DomainError } from '../../core/errors.js';
import { echo } from '../../core/input-limits.js';
import { zoneNames } from '../../core/time/zones.js';

/**
 * Windows time zone names (what Microsoft Graph writes: "Pacific Standard Time") ⇄ IANA zones
 * (what the domain keeps), from CLDR's windowsZones mapping as Unicode publishes it in
 * `cldr-core` (ADR 0018). Each Windows zone has one "golden" IANA zone (territory 001); an IANA
 * zone belongs to exactly one Windows zone. CLDR spells zones with stable old names
 * ("Europe/Kiev", "Asia/Calcutta"), as ICU does; names are compared through Intl's canonical form
 * so "Europe/Kyiv", "US/Eastern" and "Etc/UTC" are found too, and answers use the name IANA
 * uses today (the one {@link zoneNames} lists).
 */

interface MapZone {
  _other: string;
  _type: string;
  _territory: string;
}

const MAP_ZONES: readonly MapZone[] = windowsZonesJson.supplemental.windowsZones.mapTimezones.map(
  (entry) => entry.mapZone,
);

/** The CLDR release the mapping comes from ("48"). */
export const WINDOWS_ZONES_CLDR_VERSION: string = windowsZonesJson.supplemental.version._cldrVersion;

/** Graph writes UTC as this in some fields (originalStartTimeZone). */
const GRAPH_UTC = 'tzone://Microsoft/Utc';

let canonicalNames: Set<string> | undefined;
// Answers for names outside Intl's own list (aliases, other letter case), bounded: callers send them.
const aliasAnswers = new Map<string, string | undefined>();
const MAX_ALIAS_ANSWERS = 1000;

/**
 * Intl's canonical spelling of a zone (aliases folded), or undefined when Intl does not know it.
 * Names Intl lists are canonical already; building a DateTimeFormat costs ~0.3 ms, so only other
 * names pay it, once.
 */
function canonical(zone: string): string | undefined {
  canonicalNames ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
  if (canonicalNames.has(zone)) return zone;
  if (aliasAnswers.has(zone)) return aliasAnswers.get(zone);
  let answer: string | undefined;
  try {
    answer = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    answer = undefined;
  }
  if (aliasAnswers.size < MAX_ALIAS_ANSWERS) aliasAnswers.set(zone, answer);
  return answer;
}

interface Tables {
  windowsToIana: Map<string, string>;
  /** Keyed by Intl's canonical name. */
  canonicalToWindows: Map<string, string>;
  /** Windows names by lower case, for a caller that changed the letter case. */
  windowsByLowerCase: Map<string, string>;
  /** Every IANA name the mapping names, as CLDR spells it. */
  ianaNames: string[];
}

let tables: Tables | undefined;

function buildTables(): Tables {
  const preferred = new Map<string, string>();
  for (const name of zoneNames()) {
    const key = canonical(name);
    if (key !== undefined && !preferred.has(key)) preferred.set(key, name);
  }
  const windowsToIana = new Map<string, string>();
  const canonicalToWindows = new Map<string, string>();
  const ianaNames = new Set<string>();
  for (const zone of MAP_ZONES) {
    const names = zone._type.split(' ').filter((name) => name.length > 0);
    for (const name of names) {
      ianaNames.add(name);
      const key = canonical(name) ?? name;
      if (!canonicalToWindows.has(key)) canonicalToWindows.set(key, zone._other);
    }
    if (zone._territory === '001' && names[0] !== undefined) {
      const key = canonical(names[0]);
      windowsToIana.set(zone._other, (key && preferred.get(key)) ?? names[0]);
    }
  }
  const windowsByLowerCase = new Map([...windowsToIana.keys()].map((name) => [name.toLowerCase(), name]));
  return { windowsToIana, canonicalToWindows, windowsByLowerCase, ianaNames: [...ianaNames].sort() };
}

function mapping(): Tables {
  tables ??= buildTables();
  return tables;
}

/** Every Windows zone name in CLDR's mapping, sorted. */
export function windowsZoneNames(): string[] {
  return [...mapping().windowsToIana.keys()].sort();
}

/** Every IANA name CLDR's mapping names (its own spelling, e.g. "Europe/Kiev"), sorted. */
export function mappedIanaZones(): string[] {
  return [...mapping().ianaNames];
}

/**
 * The IANA zone of a Windows zone name. Throws INVALID_TIMEZONE for a name CLDR does not map.
 *
 * @example
 * windowsZoneToIana('Pacific Standard Time'); // 'America/Los_Angeles'
 * windowsZoneToIana('FLE Standard Time'); // 'Europe/Kyiv'
 */
export function windowsZoneToIana(windowsZone: string): string {
  const { windowsToIana, windowsByLowerCase } = mapping();
  const name = windowsByLowerCase.get(windowsZone.trim().toLowerCase());
  const iana = name === undefined ? undefined : windowsToIana.get(name);
  if (iana === undefined) {
    throw new DomainError(
      'INVALID_TIMEZONE',
      `${echo(windowsZone)} is not a Windows time zone in CLDR ${WINDOWS_ZONES_CLDR_VERSION}'s mapping: give an IANA zone such as "America/New_York", or a Windows name such as "Eastern Standard Time".`,
      { zone: windowsZone, source: 'windows' },
    );
  }
  return iana;
}

/**
 * The Windows zone name of an IANA zone (aliases accepted). Throws INVALID_TIMEZONE for a zone
 * Intl does not know or one no Windows zone covers (Antarctica/Troll).
 *
 * @example
 * ianaToWindowsZone('Europe/Kyiv'); // 'FLE Standard Time'
 * ianaToWindowsZone('UTC'); // 'UTC'
 */
export function ianaToWindowsZone(ianaZone: string): string {
  const key = canonical(ianaZone.trim());
  const windows = key === undefined ? undefined : mapping().canonicalToWindows.get(key);
  if (windows === undefined) {
    throw new DomainError(
      'INVALID_TIMEZONE',
      key === undefined
        ? `${echo(ianaZone)} is not an IANA time zone: give one such as "Europe/Berlin".`
        : `Outlook has no Windows time zone for ${echo(ianaZone)} (CLDR ${WINDOWS_ZONES_CLDR_VERSION} maps none): schedule the event in a zone with the same clock, or in UTC.`,
      { zone: ianaZone, source: 'iana' },
    );
  }
  return windows;
}

/**
 * The IANA zone of a zone name as Graph writes it: a Windows name, an IANA name (Graph accepts
 * and may echo those), or `tzone://Microsoft/Utc`. Throws INVALID_TIMEZONE for anything else.
 *
 * @example
 * zoneFromGraph('W. Europe Standard Time'); // 'Europe/Berlin'
 * zoneFromGraph('tzone://Microsoft/Utc'); // 'UTC'
 * zoneFromGraph('Asia/Tokyo'); // 'Asia/Tokyo'
 */
export function zoneFromGraph(name: string): string {
  const trimmed = name.trim();
  if (trimmed.toLowerCase() === GRAPH_UTC.toLowerCase()) return 'UTC';
  if (mapping().windowsByLowerCase.has(trimmed.toLowerCase())) return windowsZoneToIana(trimmed);
  if (trimmed.includes('/') && canonical(trimmed) !== undefined) return trimmed;
  return windowsZoneToIana(trimmed);
}
