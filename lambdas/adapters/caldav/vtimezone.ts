import ICAL from 'ical.js';
import { IANAZone } from '../../core/time/luxon.js';

/**
 * Builds RFC 5545 VTIMEZONE components from the IANA database (through luxon/Intl).
 *
 * Why by hand: RFC 5545 §3.2.19 requires a VTIMEZONE for every TZID a resource uses, and ical.js
 * cannot produce one from an IANA name. Radicale happens to add one itself, but other servers and
 * clients need it in the resource. No maintained npm package we already depend on does this.
 *
 * The component covers `HORIZON_YEARS` from the first year a resource uses. Each kind of
 * transition (same offsets before and after) becomes one observance: a yearly RRULE when every
 * transition of that kind falls on the same "nth/last weekday of a month" at the same wall time
 * (true for the US, EU, Australia…), otherwise an explicit RDATE list. Beyond the horizon an
 * RDATE-based zone keeps its last offset, which is what a zone that abolished DST does anyway.
 */
const HORIZON_YEARS = 12;
const SPAN_YEARS = HORIZON_YEARS + 1;
const DAY_MS = 86_400_000;
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

interface Transition {
  /** UTC instant of the change. */
  at: number;
  fromMinutes: number;
  toMinutes: number;
}

const cache = new Map<string, string>();

/**
 * A VTIMEZONE for an IANA zone, valid from January 1st of `fromYear`.
 *
 * @example
 * buildVtimezone('America/New_York', 2026).toString();
 * // BEGIN:VTIMEZONE / TZID:America/New_York / BEGIN:DAYLIGHT / DTSTART:20260308T020000 /
 * // RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU / TZOFFSETFROM:-0500 / TZOFFSETTO:-0400 / … / END:VTIMEZONE
 */
export function buildVtimezone(zoneName: string, fromYear: number): ICAL.Component {
  const key = `${zoneName}@${fromYear}`;
  let text = cache.get(key);
  if (text === undefined) {
    text = generate(IANAZone.create(zoneName), fromYear);
    cache.set(key, text);
  }
  return ICAL.Component.fromString(text);
}

function generate(zone: IANAZone, fromYear: number): string {
  // Scan from the year before, so that January of `fromYear` already lies after an observance's
  // DTSTART (readers disagree about times before the first observance).
  const firstYear = fromYear - 1;
  const start = Date.UTC(firstYear, 0, 1);
  const end = Date.UTC(firstYear + SPAN_YEARS, 0, 1);
  const transitions = findTransitions(zone, start, end);
  const lines = ['BEGIN:VTIMEZONE', `TZID:${zone.name}`];
  if (transitions.length === 0) {
    const offset = zone.offset(start);
    lines.push(...observance('STANDARD', localStamp(start, offset), offset, offset, []));
  } else {
    const groups = new Map<string, Transition[]>();
    for (const t of transitions) {
      const group = groups.get(`${t.fromMinutes}/${t.toMinutes}`) ?? [];
      group.push(t);
      groups.set(`${t.fromMinutes}/${t.toMinutes}`, group);
    }
    const standardOffset = Math.min(...transitions.map((t) => t.toMinutes));
    for (const group of groups.values()) {
      const first = group[0]!;
      const kind = first.toMinutes > standardOffset ? 'DAYLIGHT' : 'STANDARD';
      const rule = yearlyRule(group, firstYear);
      // The RDATE list repeats DTSTART: RFC 5545 counts DTSTART as the first onset anyway, but
      // ical.js ignores DTSTART as soon as an observance has RDATEs.
      const extra = rule ? [`RRULE:${rule}`] : group.map((t) => `RDATE:${localStamp(t.at, t.fromMinutes)}`);
      lines.push(
        ...observance(
          kind,
          localStamp(first.at, first.fromMinutes),
          first.fromMinutes,
          first.toMinutes,
          extra,
        ),
      );
    }
  }
  lines.push('END:VTIMEZONE');
  return lines.join('\r\n');
}

function observance(kind: string, dtstart: string, from: number, to: number, extra: string[]): string[] {
  return [
    `BEGIN:${kind}`,
    `DTSTART:${dtstart}`,
    ...extra,
    `TZOFFSETFROM:${icalOffset(from)}`,
    `TZOFFSETTO:${icalOffset(to)}`,
    `END:${kind}`,
  ];
}

/** Offset changes between `start` and `end`, to the minute: a daily scan, then a binary search. */
function findTransitions(zone: IANAZone, start: number, end: number): Transition[] {
  const found: Transition[] = [];
  let previous = zone.offset(start);
  for (let day = start + DAY_MS; day <= end; day += DAY_MS) {
    const offset = zone.offset(day);
    if (offset === previous) continue;
    let low = day - DAY_MS;
    let high = day;
    while (high - low > 60_000) {
      const mid = low + Math.floor((high - low) / 120_000) * 60_000;
      if (zone.offset(mid) === previous) low = mid;
      else high = mid;
    }
    found.push({ at: high, fromMinutes: previous, toMinutes: offset });
    previous = offset;
  }
  return found;
}

/** `FREQ=YEARLY;BYMONTH=m;BYDAY=nDD` when it reproduces every transition in the group, yearly. */
function yearlyRule(group: Transition[], firstYear: number): string | undefined {
  if (group.length !== SPAN_YEARS) return undefined;
  const walls = group.map((t) => new Date(t.at + t.fromMinutes * 60_000));
  const first = walls[0]!;
  const sameWall = walls.every(
    (w, i) =>
      w.getUTCFullYear() === firstYear + i &&
      w.getUTCMonth() === first.getUTCMonth() &&
      w.getUTCDay() === first.getUTCDay() &&
      w.getUTCHours() === first.getUTCHours() &&
      w.getUTCMinutes() === first.getUTCMinutes(),
  );
  if (!sameWall) return undefined;
  const weekday = WEEKDAYS[(first.getUTCDay() + 6) % 7];
  const nth = (w: Date) => Math.ceil(w.getUTCDate() / 7);
  const isLast = (w: Date) => w.getUTCDate() + 7 > daysInMonth(w);
  const byMonth = `FREQ=YEARLY;BYMONTH=${first.getUTCMonth() + 1}`;
  if (nth(first) <= 4 && walls.every((w) => nth(w) === nth(first)))
    return `${byMonth};BYDAY=${nth(first)}${weekday}`;
  if (walls.every(isLast)) return `${byMonth};BYDAY=-1${weekday}`;
  return undefined;
}

function daysInMonth(d: Date): number {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
}

/** Wall-clock time at `at` in a zone `offsetMinutes` from UTC, as an iCalendar local DATE-TIME. */
function localStamp(at: number, offsetMinutes: number): string {
  return new Date(at + offsetMinutes * 60_000).toISOString().slice(0, 19).replace(/[-:]/g, '');
}

function icalOffset(minutes: number): string {
  const abs = Math.abs(minutes);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  return `${minutes < 0 ? '-' : '+'}${hhmm}`;
}
