import { DomainError } from '../../core/errors.js';
import { FREQUENCIES, type RecurrenceRule, WEEKDAYS } from '../../core/time/recurrence/parse-rule.js';
import {
  GRAPH_WEEK_INDEXES,
  GRAPH_WEEKDAYS,
  type GraphRecurrencePattern,
  type GraphWeekday,
  type GraphWeekIndex,
} from './graph-recurrence-schema.js';

/**
 * One Graph recurrencePattern ⇄ the pattern parts of an RRULE (everything but COUNT/UNTIL).
 *
 * Two Outlook behaviours decide the mapping of days 29–31. Outlook moves a monthly occurrence on
 * day 29, 30 or 31 to the last day of a shorter month, and a yearly one on 29 February to the
 * 28th in other years; RFC 5545 skips those months instead. So a Graph day 29…31 is written as
 * "the last of days 28…d" (`BYMONTHDAY=28,29,30;BYSETPOS=-1`), which is exactly Outlook's
 * rule, and a plain RRULE day 29…31 is refused. A relative pattern with several days means the
 * index-th of the days the month has among them (Graph: "the event falls on the first day that
 * satisfies the pattern" for index "first"), which is BYSETPOS over those days.
 */

/** The RRULE parts and values Graph cannot express are named in `details.part`. */
export function refuse(part: string, reason: string): never {
  throw new DomainError('INVALID_RRULE', `Outlook cannot store this recurrence: ${reason}`, {
    part,
    reason,
    provider: 'outlook',
  });
}

/** The first start of a series as calendar fields of its wall clock. */
export interface StartFields {
  year: number;
  month: number;
  day: number;
  /** 0 = Monday, as parse-rule numbers weekdays. */
  weekday: number;
}

const INDEX_OF_ORDINAL = new Map<number, GraphWeekIndex>([
  [1, 'first'],
  [2, 'second'],
  [3, 'third'],
  [4, 'fourth'],
  [-1, 'last'],
]);

// Days in each month of a leap year; February's 28 in other years is what forces the clamping.
const MONTH_LENGTHS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const graphDay = (weekday: number): GraphWeekday => GRAPH_WEEKDAYS[(weekday + 1) % 7]!;
const ruleDay = (day: GraphWeekday): string => WEEKDAYS[(GRAPH_WEEKDAYS.indexOf(day) + 6) % 7]!;

function daysOf(weekdays: number[]): GraphWeekday[] {
  return [...new Set(weekdays)].sort((a, b) => a - b).map(graphDay);
}

/** The d of "the last of days 28…d" (BYMONTHDAY=28,…,d;BYSETPOS=-1, or BYMONTHDAY=-1 as 31). */
function lastOfDays(rule: RecurrenceRule): number | undefined {
  const { bymonthday, bysetpos } = rule;
  if (!bymonthday) return undefined;
  if (bymonthday.length === 1 && bymonthday[0] === -1 && !bysetpos) return 31;
  const last = bymonthday.at(-1)!;
  const consecutive = bymonthday.every((day, i) => day === 28 + i);
  return bysetpos?.length === 1 && bysetpos[0] === -1 && consecutive && last > 28 ? last : undefined;
}

/** The one plain day a rule names (BYMONTHDAY or DTSTART's), or a refusal. */
function plainDay(rule: RecurrenceRule, start: StartFields): { day: number; part: string } {
  if (rule.bysetpos) refuse('BYSETPOS', 'BYSETPOS with BYMONTHDAY other than "the last of days 28…31".');
  const days = rule.bymonthday ?? [start.day];
  const part = rule.bymonthday ? 'BYMONTHDAY' : 'DTSTART';
  if (days.length > 1) refuse(part, `Outlook repeats on one day of the month; got ${days.join(',')}.`);
  const day = days[0]!;
  if (day < 0)
    refuse(part, `Outlook cannot count days from the end of the month (${day}), except the last day (-1).`);
  return { day, part };
}

const lastOfDaysText = (day: number) =>
  `BYMONTHDAY=${Array.from({ length: day - 27 }, (_, i) => 28 + i).join(',')};BYSETPOS=-1`;

/** The day of month a monthly pattern names, or a refusal. */
function monthlyDay(rule: RecurrenceRule, start: StartFields): number {
  const last = lastOfDays(rule);
  if (last !== undefined) return last;
  const { day, part } = plainDay(rule, start);
  if (day > 28) {
    refuse(
      part,
      `Outlook moves day ${day} to the last day of shorter months, where RFC 5545 skips them: use "${lastOfDaysText(day)}" for Outlook's behaviour, or a day up to 28.`,
    );
  }
  return day;
}

/** The day of `month` a yearly pattern names, or a refusal. */
function yearlyDay(rule: RecurrenceRule, start: StartFields, month: number): number {
  const length = MONTH_LENGTHS[month - 1]!;
  const last = lastOfDays(rule);
  // The last of days 28…d in a month is its day min(d, length); only February's length varies.
  if (last !== undefined) return Math.min(last, length);
  const { day, part } = plainDay(rule, start);
  if (day > length) refuse(part, `month ${month} has no day ${day}: the rule never occurs.`);
  if (month === 2 && day === 29) {
    refuse(
      part,
      `Outlook moves 29 February to the 28th in other years, where RFC 5545 skips them: use "BYMONTH=2;${lastOfDaysText(29)}" for Outlook's behaviour.`,
    );
  }
  return day;
}

/** daysOfWeek and index of a relative (monthly or yearly) pattern, or a refusal. */
function relativeDays(rule: RecurrenceRule): { daysOfWeek: GraphWeekday[]; index: GraphWeekIndex } {
  const byday = rule.byday ?? [];
  const ordinals = byday.filter((d) => d.nth !== undefined);
  if (ordinals.length > 0) {
    if (byday.length > 1) refuse('BYDAY', 'Outlook repeats on one weekday position a month; got several.');
    if (rule.bysetpos) refuse('BYSETPOS', 'BYSETPOS together with a BYDAY ordinal.');
    const index = INDEX_OF_ORDINAL.get(ordinals[0]!.nth!);
    if (!index)
      refuse('BYDAY', `Outlook counts weekdays as first…fourth or last; got ordinal ${ordinals[0]!.nth}.`);
    return { daysOfWeek: daysOf([ordinals[0]!.weekday]), index };
  }
  if (!rule.bysetpos) {
    refuse(
      'BYDAY',
      'every listed weekday of the month or year: Outlook repeats once a month; use FREQ=WEEKLY.',
    );
  }
  const index = rule.bysetpos.length === 1 ? INDEX_OF_ORDINAL.get(rule.bysetpos[0]!) : undefined;
  if (!index)
    refuse('BYSETPOS', `Outlook picks one position, first…fourth or last; got ${rule.bysetpos.join(',')}.`);
  return { daysOfWeek: daysOf(byday.map((d) => d.weekday)), index };
}

function refuseParts(rule: RecurrenceRule, parts: (keyof RecurrenceRule)[], why: string): void {
  for (const part of parts)
    if (rule[part] !== undefined) refuse(part.toUpperCase(), `${part.toUpperCase()} ${why}`);
}

function weeklyPattern(rule: RecurrenceRule, start: StartFields): GraphRecurrencePattern {
  refuseParts(rule, ['bymonth', 'bysetpos', 'bymonthday'], 'with a weekly or daily-by-weekday rule.');
  return {
    type: 'weekly',
    interval: rule.interval,
    daysOfWeek: daysOf(rule.byday?.map((d) => d.weekday) ?? [start.weekday]),
    firstDayOfWeek: graphDay(rule.wkst),
  };
}

function monthlyPattern(rule: RecurrenceRule, start: StartFields): GraphRecurrencePattern {
  refuseParts(rule, ['bymonth'], 'with FREQ=MONTHLY: Outlook repeats every N months.');
  if (rule.byday && rule.bymonthday) {
    refuse(
      'BYMONTHDAY',
      'a weekday on a day of the month (e.g. Friday the 13th): Outlook has one or the other.',
    );
  }
  if (rule.byday) return { type: 'relativeMonthly', interval: rule.interval, ...relativeDays(rule) };
  return { type: 'absoluteMonthly', interval: rule.interval, dayOfMonth: monthlyDay(rule, start) };
}

function yearlyPattern(rule: RecurrenceRule, start: StartFields): GraphRecurrencePattern {
  if (rule.bymonth && rule.bymonth.length > 1) {
    refuse('BYMONTH', `Outlook repeats in one month a year; got ${rule.bymonth.join(',')}.`);
  }
  const month = rule.bymonth?.[0] ?? start.month;
  if (rule.byday) {
    if (!rule.bymonth)
      refuse('BYDAY', 'a weekday counted within the year: add BYMONTH, Outlook counts within a month.');
    if (rule.bymonthday)
      refuse('BYMONTHDAY', 'a weekday on a day of the month: Outlook has one or the other.');
    return { type: 'relativeYearly', interval: rule.interval, month, ...relativeDays(rule) };
  }
  if (rule.bymonthday && !rule.bymonth) {
    refuse('BYMONTHDAY', 'BYMONTHDAY without BYMONTH repeats every month: use FREQ=MONTHLY.');
  }
  const dayOfMonth = yearlyDay(rule, start, month);
  return { type: 'absoluteYearly', interval: rule.interval, month, dayOfMonth };
}

/**
 * The Graph pattern of a parsed RRULE whose series starts on `start`, or INVALID_RRULE naming
 * the part Graph cannot express. COUNT/UNTIL are the range's business, not read here.
 *
 * @example
 * patternOfRule(parseRule('FREQ=MONTHLY;BYDAY=2TU'), { year: 2026, month: 1, day: 13, weekday: 1 });
 * // { type: 'relativeMonthly', interval: 1, daysOfWeek: ['tuesday'], index: 'second' }
 */
export function patternOfRule(rule: RecurrenceRule, start: StartFields): GraphRecurrencePattern {
  const freq = FREQUENCIES[rule.freq]!;
  if (freq === 'HOURLY' || freq === 'MINUTELY' || freq === 'SECONDLY') {
    refuse('FREQ', `FREQ=${freq}: Outlook repeats daily at the least.`);
  }
  refuseParts(
    rule,
    ['byhour', 'byminute', 'bysecond'],
    'sets times of day: an Outlook series occurs at its start time only.',
  );
  refuseParts(rule, ['byweekno'], 'numbers weeks of the year: Outlook has no such pattern.');
  refuseParts(rule, ['byyearday'], 'numbers days of the year: Outlook has no such pattern.');
  if (freq === 'DAILY') {
    if (!rule.byday) {
      refuseParts(
        rule,
        ['bymonth', 'bymonthday', 'bysetpos'],
        'with FREQ=DAILY: Outlook repeats every N days.',
      );
      return { type: 'daily', interval: rule.interval };
    }
    // Every day that is a listed weekday is a weekly pattern, when no day is skipped between.
    if (rule.interval > 1)
      refuse('INTERVAL', 'every N days on listed weekdays: Outlook has no such pattern.');
    return weeklyPattern(rule, start);
  }
  if (freq === 'WEEKLY') return weeklyPattern(rule, start);
  if (freq === 'MONTHLY') return monthlyPattern(rule, start);
  return yearlyPattern(rule, start);
}

function relativeParts(pattern: GraphRecurrencePattern, what: string): string[] {
  const days = pattern.daysOfWeek ?? [];
  if (days.length === 0) invalidGraph(`a ${what} pattern without daysOfWeek`);
  const index = pattern.index ?? 'first';
  const ordinal = [1, 2, 3, 4, -1][GRAPH_WEEK_INDEXES.indexOf(index)]!;
  if (days.length === 1) return [`BYDAY=${ordinal}${ruleDay(days[0]!)}`];
  return [`BYDAY=${sortedRuleDays(days)}`, `BYSETPOS=${ordinal}`];
}

function sortedRuleDays(days: readonly GraphWeekday[]): string {
  const weekdays = [...new Set(days.map(ruleDay))];
  return WEEKDAYS.filter((d) => weekdays.includes(d)).join(',');
}

/** Outlook's day d as RRULE parts: the day itself, or "the last of days 28…d" past 28. */
function dayParts(day: number, month?: number): string[] {
  const longest = month === undefined ? 31 : MONTH_LENGTHS[month - 1]!;
  if (day < 1 || day > longest) invalidGraph(`day ${day}${month === undefined ? '' : ` of month ${month}`}`);
  // A day every month has (and 30 April, 31 July …) needs no clamping; February 29 does.
  const clamps = month === undefined ? day > 28 : month === 2 && day === 29;
  if (!clamps) return [`BYMONTHDAY=${day}`];
  return [`BYMONTHDAY=${Array.from({ length: day - 27 }, (_, i) => 28 + i).join(',')}`, 'BYSETPOS=-1'];
}

export function invalidGraph(what: string): never {
  throw new DomainError(
    'PROVIDER_ERROR',
    `Outlook returned a recurrence Meridian cannot read (${what}): check the series in Outlook, or recreate it.`,
    { provider: 'outlook', part: 'recurrence' },
  );
}

/**
 * The RRULE parts (FREQ first; no COUNT/UNTIL) of a Graph pattern. Every Graph pattern has an
 * exact RRULE; a pattern Graph itself would refuse (no daysOfWeek, day 0) is PROVIDER_ERROR.
 *
 * @example
 * ruleOfPattern({ type: 'absoluteMonthly', interval: 1, dayOfMonth: 31 });
 * // ['FREQ=MONTHLY', 'BYMONTHDAY=28,29,30,31', 'BYSETPOS=-1']
 */
export function ruleOfPattern(pattern: GraphRecurrencePattern): string[] {
  const interval = pattern.interval > 1 ? [`INTERVAL=${pattern.interval}`] : [];
  const month = pattern.month ?? 0;
  const needsMonth = () => {
    if (month < 1) invalidGraph(`a ${pattern.type} pattern without a month`);
    return [`BYMONTH=${month}`];
  };
  switch (pattern.type) {
    case 'daily':
      return ['FREQ=DAILY', ...interval];
    case 'weekly': {
      const days = pattern.daysOfWeek ?? [];
      if (days.length === 0) invalidGraph('a weekly pattern without daysOfWeek');
      // Graph's default week start is Sunday; RFC 5545's is Monday.
      const wkst = ruleDay(pattern.firstDayOfWeek ?? 'sunday');
      return [
        'FREQ=WEEKLY',
        ...interval,
        `BYDAY=${sortedRuleDays(days)}`,
        ...(wkst === 'MO' ? [] : [`WKST=${wkst}`]),
      ];
    }
    case 'absoluteMonthly':
      return ['FREQ=MONTHLY', ...interval, ...dayParts(pattern.dayOfMonth ?? 0)];
    case 'relativeMonthly':
      return ['FREQ=MONTHLY', ...interval, ...relativeParts(pattern, 'relativeMonthly')];
    case 'absoluteYearly': {
      const byMonth = needsMonth();
      return ['FREQ=YEARLY', ...interval, ...byMonth, ...dayParts(pattern.dayOfMonth ?? 0, month)];
    }
    case 'relativeYearly': {
      const byMonth = needsMonth();
      return ['FREQ=YEARLY', ...interval, ...byMonth, ...relativeParts(pattern, 'relativeYearly')];
    }
  }
}
