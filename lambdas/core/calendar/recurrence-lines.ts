import ICAL from 'ical.js';
import { DomainError } from '../errors.js';
import { echo } from '../input-limits.js';
import { DateTime, IANAZone } from '../time/luxon.js';
import { RFC_5545, wallClockToInstant } from '../time/wall-clock-to-instant.js';

/**
 * The recurrence of a series as Google and iCalendar write it — lines such as
 * `RRULE:FREQ=WEEKLY;COUNT=10` and `EXDATE;TZID=Europe/London:20260310T090000` — split into the
 * rule and the excluded starts as wall-clock times of the series' zone. Parsing the lines is
 * ical.js's job (parameters, value lists, DATE vs DATE-TIME); only the RRULE value is kept as text.
 */
export interface RecurrenceSet {
  /** The RRULE value without the `RRULE:` prefix. */
  rrule: string;
  /** Excluded starts, wall clock of the series zone: `YYYY-MM-DDTHH:mm:ss` (all-day: T00:00:00). */
  exdates: string[];
  /** Lines Meridian keeps but does not expand (RDATE, EXRULE), verbatim. */
  other: string[];
}

const WALL = "yyyy-MM-dd'T'HH:mm:ss";

function exdateWallClocks(line: string, zone: string): string[] {
  const property = ICAL.Property.fromString(line);
  const tzid = property.getParameter('tzid');
  return property.getValues().map((value) => {
    const time = value as ICAL.Time;
    if (time.isDate) return `${time.toString()}T00:00:00`;
    const text = time.toString();
    if (text.endsWith('Z')) return DateTime.fromISO(text, { zone: 'utc' }).setZone(zone).toFormat(WALL);
    if (typeof tzid === 'string' && tzid !== zone && IANAZone.isValidZone(tzid)) {
      const instant = wallClockToInstant(DateTime.fromISO(text, { zone: 'utc' }).toMillis(), tzid, RFC_5545);
      return DateTime.fromMillis(instant, { zone }).toFormat(WALL);
    }
    // A TZID that is no IANA name cannot be placed: luxon's reading of it is invalid, as before.
    if (typeof tzid === 'string' && tzid !== zone) {
      return DateTime.fromISO(text, { zone: tzid }).setZone(zone).toFormat(WALL);
    }
    return text;
  });
}

/**
 * Splits recurrence lines into rule, exclusions and the rest. Throws INVALID_RRULE when there is
 * no RRULE or more than one.
 *
 * @example
 * parseRecurrence(['RRULE:FREQ=DAILY;COUNT=3', 'EXDATE:20260302T140000Z'], 'America/New_York');
 * // { rrule: 'FREQ=DAILY;COUNT=3', exdates: ['2026-03-02T09:00:00'], other: [] }
 */
export function parseRecurrence(lines: readonly string[], zone: string): RecurrenceSet {
  const rules: string[] = [];
  const exdates: string[] = [];
  const other: string[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    const name = line.slice(0, line.search(/[:;]/)).toUpperCase();
    if (name === 'RRULE') rules.push(line.slice(line.indexOf(':') + 1));
    else if (name === 'EXDATE') {
      try {
        exdates.push(...exdateWallClocks(line, zone));
      } catch (error) {
        throw new DomainError(
          'INVALID_RRULE',
          `Cannot read the recurrence line ${echo(line)}.`,
          {},
          { cause: error },
        );
      }
    } else if (line.length > 0) other.push(line);
  }
  if (rules.length !== 1) {
    throw new DomainError(
      'INVALID_RRULE',
      `A recurring event needs exactly one RRULE line, e.g. "RRULE:FREQ=WEEKLY;BYDAY=MO"; got ${rules.length}.`,
    );
  }
  return { rrule: rules[0]!, exdates: [...new Set(exdates)].sort(), other };
}

function basic(wall: string): string {
  return wall.replace(/[-:]/g, '');
}

/**
 * Writes a recurrence set back as lines: EXDATE with TZID for a zoned series, VALUE=DATE for an
 * all-day one, UTC for a UTC series.
 */
export function formatRecurrence(set: RecurrenceSet, zone: string, allDay: boolean): string[] {
  const lines = [`RRULE:${set.rrule}`];
  if (set.exdates.length > 0) {
    if (allDay)
      lines.push(`EXDATE;VALUE=DATE:${set.exdates.map((wall) => basic(wall.slice(0, 10))).join(',')}`);
    else if (zone === 'UTC') lines.push(`EXDATE:${set.exdates.map((wall) => `${basic(wall)}Z`).join(',')}`);
    else lines.push(`EXDATE;TZID=${zone}:${set.exdates.map(basic).join(',')}`);
  }
  return [...lines, ...set.other];
}

/** The value of one RRULE part (COUNT, UNTIL, FREQ, …), upper-cased key, or undefined. */
export function rulePart(rrule: string, key: string): string | undefined {
  const wanted = key.toUpperCase();
  for (const part of rrule.split(';')) {
    const [name, value] = part.split('=');
    if (name?.trim().toUpperCase() === wanted) return value?.trim();
  }
  return undefined;
}

/**
 * Sets or removes RRULE parts, keeping the others in order. `null` removes a part.
 *
 * @example
 * withRuleParts('FREQ=DAILY;COUNT=10', { COUNT: null, UNTIL: '20260310T135959Z' });
 * // 'FREQ=DAILY;UNTIL=20260310T135959Z'
 */
export function withRuleParts(rrule: string, parts: Record<string, string | number | null>): string {
  const keys = new Set(Object.keys(parts).map((k) => k.toUpperCase()));
  const kept = rrule
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.length > 0 && !keys.has(part.split('=')[0]!.toUpperCase()));
  const added = Object.entries(parts)
    .filter(([, value]) => value !== null)
    .map(([key, value]) => `${key.toUpperCase()}=${value}`);
  return [...kept, ...added].join(';');
}
