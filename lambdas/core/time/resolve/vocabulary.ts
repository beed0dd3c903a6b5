/**
 * The words the resolver understands, and regex fragments built from them. chrono-node keeps its
 * English dictionaries in a module its package exports do not expose, so the few we need live here.
 */

/** Weekday words → ISO weekday (Monday = 1 … Sunday = 7, as luxon numbers them). */
export const WEEKDAYS: Readonly<Record<string, number>> = {
  monday: 1,
  mon: 1,
  tuesday: 2,
  tues: 2,
  tue: 2,
  wednesday: 3,
  wed: 3,
  thursday: 4,
  thurs: 4,
  thur: 4,
  thu: 4,
  friday: 5,
  fri: 5,
  saturday: 6,
  sat: 6,
  sunday: 7,
  sun: 7,
};

/** Month words → month number. "may" has no abbreviation; "sept" is common enough to keep. */
export const MONTHS: Readonly<Record<string, number>> = {
  january: 1,
  jan: 1,
  february: 2,
  feb: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sept: 9,
  sep: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
};

/** Ordinal words → n (1-based); "last" is -1, counted from the end of the month. */
export const ORDINALS: Readonly<Record<string, number>> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
  fifth: 5,
  '5th': 5,
  last: -1,
  final: -1,
};

/** Number words usable in durations ("in an hour", "two weeks ago", "half an hour"). */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  'a couple of': 2,
  'half an': 0.5,
  'half a': 0.5,
};

export type DurationUnit = 'years' | 'months' | 'weeks' | 'days' | 'hours' | 'minutes' | 'seconds';

/** Unit words → unit. Single letters follow the compact "+1d2h30m" grammar (m = minutes). */
export const UNITS: Readonly<Record<string, DurationUnit>> = {
  years: 'years',
  year: 'years',
  yrs: 'years',
  yr: 'years',
  y: 'years',
  months: 'months',
  month: 'months',
  mos: 'months',
  mo: 'months',
  weeks: 'weeks',
  week: 'weeks',
  wks: 'weeks',
  wk: 'weeks',
  w: 'weeks',
  days: 'days',
  day: 'days',
  d: 'days',
  hours: 'hours',
  hour: 'hours',
  hrs: 'hours',
  hr: 'hours',
  h: 'hours',
  minutes: 'minutes',
  minute: 'minutes',
  mins: 'minutes',
  min: 'minutes',
  m: 'minutes',
  seconds: 'seconds',
  second: 'seconds',
  secs: 'seconds',
  sec: 'seconds',
  s: 'seconds',
};

/** A regex alternation of the keys, longest first so "monday" wins over "mon". */
export function alternation(words: Readonly<Record<string, unknown>>): string {
  return Object.keys(words)
    .sort((a, b) => b.length - a.length)
    .map((word) => word.replace(/\s+/g, '\\s+'))
    .join('|');
}

/** Look-arounds that make a pattern match whole words only (chrono patterns run on substrings). */
export const WORD_START = '(?<![\\w+-])';
export const WORD_END = '(?![\\w])';

/** Builds a case-insensitive whole-word pattern for a chrono parser. */
export function wordPattern(body: string): RegExp {
  return new RegExp(`${WORD_START}(?:${body})${WORD_END}`, 'i');
}
