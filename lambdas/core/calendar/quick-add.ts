import { DomainError, isDomainError } from '../errors.js';
import { echo } from '../input-limits.js';
import type { TimeDeps } from '../ports/index.js';
import { DateTime } from '../time/luxon.js';
import { type ResolvedDatetime, resolveDatetime } from '../time/resolve/resolve-datetime.js';
import { WorkBudget } from '../work-budget.js';
import type { EventDraft } from './event.js';
import { findTimeRange, type TimeRange } from './quick-add-range.js';

/** What quick_add understood from the text, returned so the caller can check it. */
export interface QuickAddReading {
  summary: string;
  time_expression: string;
  location?: string;
  all_day: boolean;
  start: string;
  end: string;
  duration_minutes: number;
  timezone: string;
  /** Words of the text that went into none of the fields: check them. */
  ignored: string[];
  /** As resolve_datetime: set when the time has another common reading. */
  ambiguous?: true;
  rule?: string;
  alternatives?: ResolvedDatetime['alternatives'];
}

const DEFAULT_MINUTES = 60;
/** The longest time expression looked for, in words ("the second Wednesday of last month at 2pm"). */
const MAX_EXPRESSION_WORDS = 10;
/** Work steps per attempt to read a run of words (one chrono parse, ~0.1 ms). */
const ATTEMPT_STEPS = 25;
// Categories (resolve_datetime's matched_category) that name a whole day, not a time of day.
const DAY_CATEGORIES = new Set(['weekday', 'calendar_date', 'ordinal']);

/**
 * True when a resolved expression names a day without a time of day ("Friday", "March 3",
 * "tomorrow", "2026-03-15", "start of next week"): the event is then all-day, or takes a range.
 */
function namesDayOnly(resolved: Resolved, expression: string): boolean {
  const category = resolved.matched_category;
  if (DAY_CATEGORIES.has(category)) return true;
  if (category === 'anchored') return !/\b(?:now|tonight)\b/i.test(expression);
  if (category === 'passthrough') return /^\d{4}-\d{2}-\d{2}$/.test(expression.trim());
  return category === 'period_boundary' && resolved.resolved_local.slice(11, 19) === '00:00:00';
}
// A numeric date ("03/04", "3/4", "4.3.", "3-4", "03/04/27"): when the time core could not read
// it, it must be refused, never left in the title while the event lands today.
const NUMERIC_DATE = /^\d{1,4}[/.-]\d{1,2}(?:[/.-](?:\d{2}|\d{4})?)?$/;
const DURATION = /\bfor (\d+(?:\.\d+)?) ?(minutes?|mins?|hours?|hrs?|h)\b/i;
const LOCATION = /^(?:at|in|@)\s+(.+)$/i;

function durationOf(text: string): { minutes?: number; rest: string } {
  const match = DURATION.exec(text);
  if (!match) return { rest: text };
  const amount = Number(match[1]);
  const minutes = /^h/i.test(match[2]!) ? Math.round(amount * 60) : Math.round(amount);
  return { minutes, rest: without(text, match.index, match[0].length) };
}

function without(text: string, index: number, length: number): string {
  return `${text.slice(0, index)} ${text.slice(index + length)}`.trim();
}

type Resolved = ReturnType<typeof resolveDatetime>;

/**
 * The longest run of words the time core resolves (at most MAX_EXPRESSION_WORDS long, searched
 * within a work budget), or undefined when no run reads as a time.
 */
function longestTimeRun(
  deps: TimeDeps,
  words: readonly string[],
  timezone: string | undefined,
): { from: number; to: number; resolved: Resolved } | undefined {
  const budget = new WorkBudget(
    'Looking for the date and time in the text',
    'Shorten the text to the title, the time and the place; add details with update_event.',
  );
  let best: { from: number; to: number; resolved: Resolved } | undefined;
  for (let from = 0; from < words.length; from++) {
    for (let to = Math.min(words.length, from + MAX_EXPRESSION_WORDS); to > from; to--) {
      if (best && to - from <= best.to - best.from) break;
      if (/^(at|in|on|for|from)$/i.test(words[from]!) && to - from === 1) continue;
      budget.spend(ATTEMPT_STEPS);
      try {
        best = {
          from,
          to,
          resolved: resolveDatetime(deps, { expression: words.slice(from, to).join(' '), timezone }),
        };
        break;
      } catch (error) {
        if (!isDomainError(error)) throw error;
      }
    }
  }
  return best;
}

/**
 * Refuses text whose numeric date the time core did not read ("Meeting 03/04 at 10": without a
 * year, 03/04 is no date resolve_datetime reads). Kept in the title, it silently put the event
 * on today; with the year given, resolve_datetime answers both readings (4 March, 3 April).
 */
function refuseUnreadDates(text: string, unusedWords: readonly string[]): void {
  const unread = unusedWords.find((word) => NUMERIC_DATE.test(word.replace(/[,;]$/, '')));
  if (unread === undefined) return;
  throw new DomainError(
    'UNRECOGNIZED_EXPRESSION',
    `Could not read "${unread}" in ${echo(text)} as a date: add the year ("${unread.replace(/[.,;]$/, '')}/2027" is ` +
      'answered with both day/month readings), or write the month\'s name ("4 March") or "2027-03-04".',
    { field: 'text', not_understood: unread },
  );
}

/** Resolves `<day> at <time>` for each end of a range; an end at or before the start is the next day. */
function rangeTimes(deps: TimeDeps, day: string, range: TimeRange, timezone: string | undefined) {
  const start = resolveDatetime(deps, { expression: `${day} at ${range.start}`, timezone });
  const endReading = resolveDatetime(deps, { expression: `${day} at ${range.end}`, timezone });
  let end = DateTime.fromISO(endReading.resolved_local, { setZone: true });
  const startAt = DateTime.fromISO(start.resolved_local, { setZone: true });
  if (end <= startAt) end = end.plus({ days: 1 });
  return { start, minutes: Math.round(end.diff(startAt, 'minutes').minutes) };
}

/**
 * Reads "Lunch with Alice tomorrow at noon at Cafe Rio": the longest run of words the time core
 * resolves becomes the time (here "tomorrow at noon"), the words before it the title, and an
 * "at …"/"in …" after it the location. A time range ("7pm-9pm", "14:00 to 15:30") sets start and
 * end; "for 30 minutes" sets the length (default 60). A day without a time makes an all-day event.
 * Words used for nothing are listed in `ignored`; the time's other readings as resolve_datetime
 * reports them. Uses resolve_datetime's own grammar, so the two tools read time the same way.
 *
 * @example
 * readQuickAdd(deps, 'Dentist Friday at 2pm', 'Europe/London').reading.summary; // 'Dentist'
 */
export function readQuickAdd(
  deps: TimeDeps,
  text: string,
  timezone: string | undefined,
): { draft: EventDraft; reading: QuickAddReading } {
  const duration = durationOf(text.trim());
  const range = findTimeRange(duration.rest);
  if (range && duration.minutes !== undefined) {
    throw new DomainError(
      'INVALID_INPUT',
      `${echo(text)} gives both a time range ("${range.text}") and a length ("for …"): keep one.`,
      { field: 'text' },
    );
  }
  const rest = range
    ? without(duration.rest, duration.rest.indexOf(range.text), range.text.length)
    : duration.rest;
  const words = rest.split(/\s+/).filter(Boolean);
  const best = longestTimeRun(deps, words, timezone);
  if (!best && !range) {
    throw new DomainError(
      'UNRECOGNIZED_EXPRESSION',
      `Found no date or time in ${echo(text)}. Include one, e.g. "Lunch with Alice tomorrow at noon at Cafe Rio" or "Team dinner Friday 7pm-9pm".`,
      { field: 'text' },
    );
  }
  const from = best?.from ?? words.length;
  const to = best?.to ?? words.length;
  const dayExpression = words.slice(from, to).join(' ');
  if (range && best && !namesDayOnly(best.resolved, dayExpression)) {
    throw new DomainError(
      'INVALID_INPUT',
      `${echo(text)} gives a time twice ("${dayExpression}" and the range "${range.text}"): keep one.`,
      { field: 'text' },
    );
  }
  refuseUnreadDates(text, [...words.slice(0, from), ...words.slice(to)]);
  if (best?.resolved.range !== undefined) {
    throw new DomainError(
      'UNRECOGNIZED_EXPRESSION',
      `"${dayExpression}" in ${echo(text)} is a period, not a day: give the day, e.g. "${best.resolved.range.start.slice(0, 10)}".`,
      { field: 'text', not_understood: dayExpression },
    );
  }
  // "on" before the time and "at" before a location are glue, not part of the title.
  const summary = words
    .slice(0, from)
    .join(' ')
    .replace(/\s+(on|at|from)$/i, '')
    .trim();
  const afterWords = words.slice(to);
  // "Lunch at noon in London": London is the time's zone and the place too.
  const zonePlace = best?.resolved.expression_timezone?.includes('/')
    ? /\sin\s+(\D.*)$/i.exec(dayExpression)?.[1]
    : undefined;
  const location = LOCATION.exec(afterWords.join(' '))?.[1]?.trim() ?? zonePlace;
  const title = summary || (location ? '' : afterWords.join(' ')) || 'Event';
  const ignored = summary && !location ? afterWords : [];

  const timed = range
    ? rangeTimes(deps, dayExpression || 'today', range, timezone)
    : { start: best!.resolved, minutes: duration.minutes ?? DEFAULT_MINUTES };
  const allDay = !range && namesDayOnly(best!.resolved, dayExpression);
  const { start: resolved, minutes } = timed;
  const start = DateTime.fromISO(resolved.resolved_local, { setZone: true }).setZone(resolved.timezone);
  const startText = allDay ? start.toISODate()! : resolved.resolved_local;
  const endText = allDay
    ? start.plus({ days: 1 }).toISODate()!
    : start.plus({ minutes }).toISO({ suppressMilliseconds: true })!;
  const draft: EventDraft = allDay
    ? { summary: title, start: { date: startText }, end: { date: endText } }
    : {
        summary: title,
        start: { date_time: startText, time_zone: resolved.timezone },
        end: { date_time: endText, time_zone: resolved.timezone },
      };
  if (location) draft.location = location;
  return {
    draft,
    reading: {
      summary: title,
      time_expression: [dayExpression, range?.text].filter(Boolean).join(' '),
      ...(location ? { location } : {}),
      all_day: allDay,
      start: startText,
      end: endText,
      duration_minutes: allDay ? 1440 : minutes,
      timezone: resolved.timezone,
      ignored,
      ...(resolved.ambiguous
        ? { ambiguous: true as const, rule: resolved.rule!, alternatives: resolved.alternatives! }
        : {}),
    },
  };
}
