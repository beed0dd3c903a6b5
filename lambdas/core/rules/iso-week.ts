import { DomainError } from '../errors.js';
import { echo } from '../input-limits.js';
import { DateTime } from '../time/luxon.js';

/** An ISO week and the window it covers: Monday 00:00 to the next Monday 00:00, local time. */
export interface IsoWeekWindow {
  week: string;
  start: string;
  end: string;
}

const ISO_WEEK = /^(\d{4})-W(\d{2})$/;

/**
 * The window of an ISO 8601 week (`2026-W48`) in `zone`. Timesheets use it for "a week", so
 * the CLI's `--week` and the weekly-timesheet prompt agree on where a week starts and ends.
 * INVALID_INPUT (field `week`) names the expected shape when the text is not a week that exists.
 *
 * @example
 * isoWeekWindow('2026-W48', 'UTC'); // { week: '2026-W48', start: '2026-11-23T00:00:00.000Z', end: '2026-11-30T00:00:00.000Z' }
 */
export function isoWeekWindow(text: string, zone: string): IsoWeekWindow {
  const match = ISO_WEEK.exec(text.trim());
  // luxon throws on an out-of-range unit rather than answering an invalid date: check first.
  const weekYear = Number(match?.[1]);
  const weekNumber = Number(match?.[2]);
  const firstOfYear = match
    ? DateTime.fromObject({ weekYear, weekNumber: 1, weekday: 1 }, { zone })
    : undefined;
  if (!firstOfYear?.isValid || weekNumber < 1 || weekNumber > firstOfYear.weeksInWeekYear) {
    throw new DomainError(
      'INVALID_INPUT',
      `${echo(text)} is not an ISO week: expected YYYY-Www with a week that exists in that year (01–52, or 53 in long years), e.g. "2026-W48".`,
      { field: 'week', expected: 'YYYY-Www', example: '2026-W48' },
    );
  }
  const start = firstOfYear.plus({ weeks: weekNumber - 1 });
  return {
    week: isoWeekOf(start.toJSDate(), zone),
    start: start.toISO()!,
    end: start.plus({ weeks: 1 }).toISO()!,
  };
}

/** The ISO week (`2026-W48`) an instant falls in, on the wall clock of `zone`. */
export function isoWeekOf(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toFormat("kkkk-'W'WW");
}

/**
 * ISO weeks to offer for `typed`, most recent first: with a year typed (`2025`, `2025-W1`), the
 * weeks of that year that start with it; otherwise the current week and the 52 before it.
 *
 * @example
 * weekCandidates(new Date('2026-11-25T12:00:00Z'), 'UTC', '2026-W4'); // ['2026-W49', '2026-W48', …, '2026-W40']
 */
export function weekCandidates(now: Date, zone: string, typed: string): string[] {
  const prefix = typed.trim().toUpperCase();
  const current = DateTime.fromJSDate(now, { zone }).startOf('week');
  const year = /^\d{4}/.exec(prefix)?.[0];
  const first = year
    ? DateTime.fromObject({ weekYear: Number(year), weekNumber: 1, weekday: 1 }, { zone })
    : undefined;
  const last = first ? first.set({ weekNumber: first.weeksInWeekYear }) : current;
  const weeks: string[] = [];
  for (let week = last; weeks.length < 53; week = week.minus({ weeks: 1 })) {
    const name = week.toFormat("kkkk-'W'WW");
    if (year && !name.startsWith(year)) break;
    weeks.push(name);
  }
  return weeks.filter((week) => week.startsWith(prefix));
}
