import { DomainError } from '../errors.js';

/** A time range found in quick-add text, with each end as resolve_datetime will read it. */
export interface TimeRange {
  /** The range as written ("7pm-9pm"), removed from the text before the date is looked for. */
  text: string;
  /** Start and end as time expressions ("7pm", "9pm"; "14:00", "15:30"). */
  start: string;
  end: string;
}

const TIME = '(\\d{1,2})(?::(\\d{2}))?\\s*([ap])?\\.?m?\\.?';
const SEPARATOR = '\\s*(?:-|–|—|\\bto\\b|\\buntil\\b|\\btill\\b)\\s*';
// "from" is glue; the look-behind keeps ISO dates ("2026-03-15") and clock times out.
const RANGE = new RegExp(`(?:\\bfrom\\s+)?(?<![\\d/:-])\\b${TIME}${SEPARATOR}${TIME}(?![\\w:])`, 'i');
// A time with am/pm or minutes followed by a separator: the start of a range we must not ignore.
const RANGE_START = new RegExp(
  `(?<![\\d/:-])\\b\\d{1,2}(?::\\d{2}|\\s*[ap]\\.?m\\b\\.?)${SEPARATOR}\\S*`,
  'i',
);

interface ClockTime {
  hour: number;
  minute: number;
  meridiem?: 'a' | 'p';
}

function clockTime(hour: string, minute: string | undefined, meridiem: string | undefined): ClockTime {
  const time: ClockTime = { hour: Number(hour), minute: Number(minute ?? 0) };
  if (meridiem) time.meridiem = meridiem.toLowerCase() as 'a' | 'p';
  return time;
}

function minutesOf(time: ClockTime, meridiem = time.meridiem): number {
  const hour = meridiem === undefined ? time.hour : (time.hour % 12) + (meridiem === 'p' ? 12 : 0);
  return hour * 60 + time.minute;
}

function expressionOf(time: ClockTime, meridiem = time.meridiem): string {
  const minutes = `:${String(time.minute).padStart(2, '0')}`;
  return meridiem === undefined ? `${time.hour}${minutes}` : `${time.hour}${minutes}${meridiem}m`;
}

/**
 * Finds a time range such as "7pm-9pm", "7-9pm", "from 10am to 2", "14:00 to 15:30" in quick-add
 * text. One end without am/pm takes the other's when that keeps the range forwards ("7-9pm" is
 * 19:00–21:00, "11-1pm" is 11:00–13:00); an end at or before the start is on the next day (the
 * caller adds it). At least one end must carry am/pm or minutes, so "in 2-3 days" is no range.
 * Throws UNRECOGNIZED_EXPRESSION for a range it cannot read ("7pm to late"): never ignored.
 *
 * @example
 * findTimeRange('Team dinner Friday 7pm-9pm'); // { text: '7pm-9pm', start: '7:00pm', end: '9:00pm' }
 */
export function findTimeRange(text: string): TimeRange | undefined {
  const match = RANGE.exec(text);
  if (match === null) {
    const loose = RANGE_START.exec(text);
    if (loose === null) return undefined;
    throw new DomainError(
      'UNRECOGNIZED_EXPRESSION',
      `Cannot read the time range "${loose[0].trim()}": give both ends as times, e.g. "7pm-9pm" or "14:00 to 15:30".`,
      { field: 'text', range: loose[0].trim() },
    );
  }
  const [whole, h1, m1, p1, h2, m2, p2] = match;
  const start = clockTime(h1!, m1, p1);
  const end = clockTime(h2!, m2, p2);
  // Two bare numbers ("2-3") are no range: "in 2-3 days", "Room 4-5".
  if (!p1 && !m1 && !p2 && !m2) return undefined;
  let startMeridiem = start.meridiem;
  let endMeridiem = end.meridiem;
  if (startMeridiem === undefined && endMeridiem !== undefined && start.hour <= 12) {
    startMeridiem =
      minutesOf(start, endMeridiem) < minutesOf(end) ? endMeridiem : endMeridiem === 'p' ? 'a' : 'p';
  } else if (endMeridiem === undefined && startMeridiem !== undefined && end.hour <= 12) {
    endMeridiem =
      minutesOf(end, startMeridiem) > minutesOf(start) ? startMeridiem : startMeridiem === 'a' ? 'p' : 'a';
  }
  return {
    text: whole.trim(),
    start: expressionOf(start, startMeridiem),
    end: expressionOf(end, endMeridiem),
  };
}
