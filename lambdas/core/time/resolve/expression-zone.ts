import { FixedOffsetZone, type Zone } from '../luxon.js';
import { requireZone, zoneNames } from '../zones.js';
import { GENERIC_ZONE_NAMES, ZONE_ABBREVIATIONS } from './zone-abbreviations.js';

/*
 * A zone named at the end of an expression: "3pm PST", "15:00 Tokyo time", "noon in London",
 * "9am UTC+2", "2pm America/Chicago". The rest of the text is read on that zone's clock (its
 * "today", its DST), and the answer is still given in the caller's zone.
 *
 * Cities are the city part of every IANA zone name the runtime knows (Intl.supportedValuesOf),
 * the one list that is maintained with the rules themselves: about 420 cities, one per distinct
 * clock history, so "Tokyo", "New York", "Kolkata" and "Sao Paulo" are there and "San Francisco"
 * or "Mumbai" are not (they share another city's zone). A city not on it is refused, not guessed.
 */

/** One reading of the zone words. */
export interface ZoneMeaning {
  zone: Zone;
  /** How the answer names it: "PST (Pacific Standard Time, UTC−08:00)", "Asia/Tokyo". */
  label: string;
  /** For an abbreviation: the zone whose clocks show it, to report when they show another offset. */
  clocks?: Zone;
}

/** An expression with a zone at its end: the text before it and the zone's readings, first chosen. */
export interface NamedZone {
  rest: string;
  words: string;
  meanings: readonly ZoneMeaning[];
}

let cities: Map<string, string> | undefined;

/** "new york" → America/New_York, "america/new_york" → America/New_York; the shortest name wins a clash. */
function cityIndex(): Map<string, string> {
  if (cities !== undefined) return cities;
  const index = new Map<string, string>();
  const byDepth = [...zoneNames()].sort((a, b) => a.split('/').length - b.split('/').length);
  for (const name of byDepth) {
    const lower = name.toLowerCase();
    index.set(lower, name);
    const city = lower.slice(lower.lastIndexOf('/') + 1).replace(/_/g, ' ');
    if (!index.has(city)) index.set(city, name);
  }
  cities = index;
  return index;
}

/** Minutes east of UTC as "UTC+05:30" / "UTC−08:00" (a true minus sign, as in the labels). */
export function utcOffsetText(minutes: number): string {
  const sign = minutes < 0 ? '−' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const OFFSET = /^(?:utc|gmt)\s*([+-])(\d{1,2})(?::?(\d{2}))?$/;

// Zone lookups (requireZone, the city index) cost more than the rest of a short parse; the words
// that named a zone are few, so their meanings are kept. Bounded: a caller could send many.
const known = new Map<string, ZoneMeaning[]>();
const MAX_KNOWN = 512;

/** The readings of one candidate run of words, or undefined when it names no zone. */
function meaningsOf(words: string): ZoneMeaning[] | undefined {
  const cached = known.get(words);
  if (cached !== undefined) return cached;
  const meanings = lookUp(words);
  if (meanings !== undefined) {
    if (known.size >= MAX_KNOWN) known.clear();
    known.set(words, meanings);
  }
  return meanings;
}

function lookUp(words: string): ZoneMeaning[] | undefined {
  const abbreviation = ZONE_ABBREVIATIONS[words.toUpperCase()];
  if (abbreviation !== undefined) {
    return abbreviation.map((meaning) => ({
      zone: FixedOffsetZone.instance(meaning.offset),
      label: `${words.toUpperCase()} (${meaning.name}, ${utcOffsetText(meaning.offset)})`,
      ...(meaning.clocks !== 'UTC' ? { clocks: requireZone(meaning.clocks) } : {}),
    }));
  }
  const offset = OFFSET.exec(words);
  if (offset !== null) {
    const [, sign, hours, minutes] = offset;
    const total = (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes ?? 0));
    if (Number(hours) > 14 || Number(minutes ?? 0) > 59) return undefined;
    return [{ zone: FixedOffsetZone.instance(total), label: utcOffsetText(total) }];
  }
  const named = GENERIC_ZONE_NAMES[words] ?? cityIndex().get(words);
  return named === undefined ? undefined : [{ zone: requireZone(named), label: named }];
}

/** The longest run of trailing words that could be one zone name ("port of spain", "ho chi minh"). */
const MAX_ZONE_WORDS = 4;

/**
 * Splits a zone off the end of a normalised expression, or returns null when it ends with none.
 * Accepts "<zone>", "<zone> time", "in <zone>", "(<zone>)" and ", <zone>".
 *
 * @example
 * namedZone('3pm pst')?.meanings[0]?.label; // 'PST (Pacific Standard Time, UTC−08:00)'
 */
export function namedZone(text: string): NamedZone | null {
  const words = text.replace(/[(),]/g, ' ').trim().split(/\s+/);
  if (words.length > 1 && /^(?:time|timezone)$/.test(words.at(-1)!)) words.pop();
  for (let count = Math.min(MAX_ZONE_WORDS, words.length - 1); count >= 1; count--) {
    const candidate = words.slice(-count).join(' ');
    const meanings = meaningsOf(candidate);
    if (meanings === undefined) continue;
    const before = words.slice(0, -count);
    if (before.at(-1) === 'in' && before.length > 1) before.pop();
    return { rest: before.join(' '), words: candidate, meanings };
  }
  return null;
}
