import { DomainError } from '../../errors.js';
import { echo, excerpt } from '../../input-limits.js';

/** RFC 5545 frequencies, numbered as rrule numbers them (YEARLY = 0 … SECONDLY = 6). */
export const FREQUENCIES = [
  'YEARLY',
  'MONTHLY',
  'WEEKLY',
  'DAILY',
  'HOURLY',
  'MINUTELY',
  'SECONDLY',
] as const;
export type FrequencyName = (typeof FREQUENCIES)[number];

/** Weekday codes, numbered as rrule numbers them (MO = 0 … SU = 6). */
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;

/** One BYDAY entry: a weekday (0 = Monday) and, for "2TU" or "-1FR", its ordinal. */
export interface ByDay {
  weekday: number;
  nth?: number;
}

/**
 * An RRULE after parsing and validation, before any default is derived from DTSTART. Absent
 * BY* parts are undefined, never empty arrays, so "not given" stays distinguishable.
 */
export interface RecurrenceRule {
  freq: number;
  interval: number;
  count?: number;
  /** UNTIL as epoch milliseconds (it must be UTC). */
  until?: number;
  /** Week start, 0 = Monday (the RFC default). */
  wkst: number;
  bysetpos?: number[];
  bymonth?: number[];
  bymonthday?: number[];
  byyearday?: number[];
  byweekno?: number[];
  byday?: ByDay[];
  byhour?: number[];
  byminute?: number[];
  bysecond?: number[];
}

type NumericPart =
  | 'bysetpos'
  | 'bymonth'
  | 'bymonthday'
  | 'byyearday'
  | 'byweekno'
  | 'byhour'
  | 'byminute'
  | 'bysecond';

// [min, max, zero allowed]: RFC 5545 §3.3.10 value ranges. BYSECOND=60 (a leap second) is refused:
// JavaScript dates cannot represent it.
const NUMERIC_PARTS: Record<string, { key: NumericPart; min: number; max: number; zero: boolean }> = {
  BYSETPOS: { key: 'bysetpos', min: -366, max: 366, zero: false },
  BYMONTH: { key: 'bymonth', min: 1, max: 12, zero: false },
  BYMONTHDAY: { key: 'bymonthday', min: -31, max: 31, zero: false },
  BYYEARDAY: { key: 'byyearday', min: -366, max: 366, zero: false },
  BYWEEKNO: { key: 'byweekno', min: -53, max: 53, zero: false },
  BYHOUR: { key: 'byhour', min: 0, max: 23, zero: true },
  BYMINUTE: { key: 'byminute', min: 0, max: 59, zero: true },
  BYSECOND: { key: 'bysecond', min: 0, max: 59, zero: true },
};

/**
 * Largest COUNT accepted. A rule with COUNT is walked from DTSTART (its count depends on every
 * earlier instance), so this bounds the work one request can ask for: ~0.5 s at rrule's speed.
 */
export const MAX_RULE_COUNT = 100_000;

const KNOWN_PARTS = ['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'WKST', 'BYDAY', ...Object.keys(NUMERIC_PARTS)];
const EXAMPLE = 'e.g. "FREQ=WEEKLY;BYDAY=MO,WE,FR" or "FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1"';

function invalid(message: string, part?: string): never {
  throw new DomainError('INVALID_RRULE', message, part === undefined ? {} : { part });
}

function parseInteger(part: string, text: string, min: number, max: number, zero: boolean): number {
  if (!/^[+-]?\d{1,7}$/.test(text)) invalid(`${part} must be a whole number; got ${echo(text)}.`, part);
  const value = Number(text);
  if (value < min || value > max || (value === 0 && !zero)) {
    const range = min < 0 ? `${min}…-1 or 1…${max}` : `${min}…${max}`;
    invalid(`${part}=${text} is out of range: use ${range}.`, part);
  }
  return value;
}

function parseByDay(text: string): ByDay[] {
  return text.split(',').map((item) => {
    const match = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item.trim());
    if (!match)
      invalid(
        `BYDAY entry ${echo(item)} is not a weekday: use MO,TU,WE,TH,FR,SA,SU, optionally with an ordinal such as 2TU or -1FR.`,
        'BYDAY',
      );
    const weekday = WEEKDAYS.indexOf(match[2] as (typeof WEEKDAYS)[number]);
    if (match[1] === undefined) return { weekday };
    return { weekday, nth: parseInteger('BYDAY', match[1], -53, 53, false) };
  });
}

function parseUntil(text: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!match) {
    const hint = /^\d{8}T\d{6}$/.test(text)
      ? ` It has no "Z": UNTIL must be UTC (RFC 5545), so convert the local end time to UTC and write e.g. "UNTIL=${text}Z".`
      : /^\d{8}$/.test(text)
        ? ` It is a date: with a date-time dtstart UNTIL must be a UTC date-time, e.g. "UNTIL=${text}T235959Z".`
        : '';
    invalid(`UNTIL must be a UTC date-time like "20261231T235959Z"; got ${echo(text)}.${hint}`, 'UNTIL');
  }
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as number[];
  const ms = Date.UTC(year!, month! - 1, day!, hour, minute, second);
  if (new Date(ms).getUTCDate() !== day || hour! > 23 || minute! > 59 || second! > 59) {
    invalid(`UNTIL=${text} is not a real date-time.`, 'UNTIL');
  }
  return ms;
}

// Days in each month, February counted as 29 so that leap days stay possible.
const MONTH_LENGTHS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Refuses rules such as "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30" that can never produce a date:
 * rrule would search up to year 9999 for one before giving up.
 */
function checkCanOccur(rule: RecurrenceRule): void {
  const { bymonth, bymonthday } = rule;
  if (!bymonth || !bymonthday) return;
  const possible = bymonth.some((month) =>
    bymonthday.some((day) => Math.abs(day) <= MONTH_LENGTHS[month - 1]!),
  );
  if (!possible) {
    invalid(
      `No month in BYMONTH=${bymonth.join(',')} has day ${bymonthday.join(',')}: the rule would never occur.`,
      'BYMONTHDAY',
    );
  }
}

function checkCombinations(rule: RecurrenceRule, freq: FrequencyName): void {
  const ordinals = rule.byday?.some((d) => d.nth !== undefined) ?? false;
  if (ordinals && freq !== 'MONTHLY' && freq !== 'YEARLY') {
    invalid(
      `BYDAY ordinals such as "2TU" need FREQ=MONTHLY or FREQ=YEARLY; with FREQ=${freq} use plain weekdays.`,
      'BYDAY',
    );
  }
  if (ordinals && rule.byweekno)
    invalid('BYDAY ordinals cannot be combined with BYWEEKNO: drop one of them.', 'BYDAY');
  if (rule.byweekno && freq !== 'YEARLY')
    invalid(`BYWEEKNO needs FREQ=YEARLY; got FREQ=${freq}.`, 'BYWEEKNO');
  if (rule.bymonthday && freq === 'WEEKLY')
    invalid('BYMONTHDAY cannot be used with FREQ=WEEKLY.', 'BYMONTHDAY');
  if (rule.byyearday && (freq === 'DAILY' || freq === 'WEEKLY' || freq === 'MONTHLY')) {
    invalid(
      `BYYEARDAY cannot be used with FREQ=${freq}: use FREQ=YEARLY or a sub-daily frequency.`,
      'BYYEARDAY',
    );
  }
  const otherBy =
    rule.bymonth ?? rule.bymonthday ?? rule.byyearday ?? rule.byweekno ?? rule.byday ?? rule.byhour;
  if (rule.bysetpos && !(otherBy ?? rule.byminute ?? rule.bysecond)) {
    invalid(
      'BYSETPOS picks from the set other BY* parts build: add one, e.g. "BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1".',
      'BYSETPOS',
    );
  }
  checkCanOccur(rule);
  if (rule.count !== undefined && rule.until !== undefined) {
    invalid('COUNT and UNTIL cannot both be given (RFC 5545): keep one of them.', 'COUNT');
  }
}

/**
 * Parses an RFC 5545 RRULE value ("FREQ=WEEKLY;BYDAY=MO,WE"; an "RRULE:" prefix and any letter
 * case are accepted) and validates every part. Hand-written rather than rrule's `parseString`:
 * that one passes out-of-range or misspelt values through silently (FREQ=SOMETIMES becomes
 * `undefined`), and an agent needs to be told which part to fix.
 *
 * @example
 * parseRule('RRULE:freq=monthly;byday=-1fr').byday; // [{ weekday: 4, nth: -1 }]
 */
export function parseRule(text: string): RecurrenceRule {
  const body = text
    .trim()
    .replace(/^RRULE:/i, '')
    .replace(/;+$/, '')
    .toUpperCase();
  if (/[\r\n]|DTSTART|EXDATE|RDATE/.test(body)) {
    invalid(
      'Pass only the RRULE value (e.g. "FREQ=DAILY;COUNT=5"): give the start as "dtstart" and exclusions as "exdates".',
    );
  }
  if (body === '') invalid(`The rule is empty: FREQ is required, ${EXAMPLE}.`, 'FREQ');
  const seen = new Set<string>();
  const rule: RecurrenceRule = { freq: -1, interval: 1, wkst: 0 };
  for (const item of body.split(';')) {
    const [name = '', value, extra] = item.split('=').map((s) => s.trim());
    if (value === undefined || value === '' || extra !== undefined) {
      invalid(`${echo(item)} is not NAME=VALUE: separate parts with ";", ${EXAMPLE}.`, name);
    }
    if (!KNOWN_PARTS.includes(name))
      invalid(`Unknown rule part ${echo(name)}: use ${KNOWN_PARTS.join(', ')}.`, name);
    if (seen.has(name)) invalid(`${name} appears twice: give each part once.`, name);
    seen.add(name);
    const numeric = NUMERIC_PARTS[name];
    if (numeric) {
      const values = value
        .split(',')
        .map((v) => parseInteger(name, v.trim(), numeric.min, numeric.max, numeric.zero));
      // Sorted and distinct: rrule builds BYSETPOS sets and times of day in list order, so
      // "BYHOUR=17,9;BYSETPOS=1" would otherwise pick 17:00 instead of the first time, 09:00.
      rule[numeric.key] = [...new Set(values)].sort((a, b) => a - b);
    } else if (name === 'FREQ') {
      rule.freq = FREQUENCIES.indexOf(value as FrequencyName);
      if (rule.freq < 0)
        invalid(`FREQ=${excerpt(value)} is not a frequency: use one of ${FREQUENCIES.join(', ')}.`, 'FREQ');
    } else if (name === 'INTERVAL') {
      rule.interval = parseInteger(name, value, 1, 1_000_000, false);
    } else if (name === 'COUNT') {
      rule.count = parseInteger(name, value, 1, MAX_RULE_COUNT, false);
    } else if (name === 'UNTIL') {
      rule.until = parseUntil(value);
    } else if (name === 'WKST') {
      rule.wkst = WEEKDAYS.indexOf(value as (typeof WEEKDAYS)[number]);
      if (rule.wkst < 0)
        invalid(`WKST=${excerpt(value)} is not a weekday: use MO, TU, WE, TH, FR, SA or SU.`, 'WKST');
    } else {
      const days = parseByDay(value);
      rule.byday = days.filter(
        (d, i) => days.findIndex((e) => e.weekday === d.weekday && e.nth === d.nth) === i,
      );
    }
  }
  if (rule.freq < 0) invalid(`FREQ is required, ${EXAMPLE}.`, 'FREQ');
  checkCombinations(rule, FREQUENCIES[rule.freq]!);
  return rule;
}
