import type { Category } from '../../../../lambdas/core/time/resolve/components.js';

/**
 * The resolve_datetime corpus: every supported pattern with the exact instant it must resolve to.
 * Shared by the tests (one `it` per case) and bench/resolve-datetime.bench.ts.
 *
 * Unless a case says otherwise it is read in America/New_York relative to 2026-02-20T15:30:00Z,
 * a Friday, 10:30 EST. February 2026 starts on a Sunday; US DST starts 2026-03-08 and ends
 * 2026-11-01. Expected offsets were cross-checked with Python's zoneinfo (see corpus-offsets.test.ts),
 * DST-edge values computed independently with zoneinfo (fold=0: earlier occurrence, gap moved forward).
 */
export interface CorpusCase {
  expression: string;
  /** resolved_local: RFC 3339 in the case's zone. */
  expected: string;
  category: Category;
  zone?: string;
  reference?: string;
}

export const DEFAULT_REFERENCE = '2026-02-20T15:30:00Z';
export const DEFAULT_ZONE = 'America/New_York';

const c = (
  expression: string,
  expected: string,
  category: Category,
  extra: Partial<CorpusCase> = {},
): CorpusCase => ({
  expression,
  expected,
  category,
  ...extra,
});

export const ANCHORED: readonly CorpusCase[] = [
  c('now', '2026-02-20T10:30:00-05:00', 'anchored'),
  c('right now', '2026-02-20T10:30:00-05:00', 'anchored'),
  c('today', '2026-02-20T00:00:00-05:00', 'anchored'),
  c('tomorrow', '2026-02-21T00:00:00-05:00', 'anchored'),
  c('tmrw', '2026-02-21T00:00:00-05:00', 'anchored'),
  c('yesterday', '2026-02-19T00:00:00-05:00', 'anchored'),
  c('tonight', '2026-02-20T20:00:00-05:00', 'anchored'),
  c('the day after tomorrow', '2026-02-22T00:00:00-05:00', 'anchored'),
  c('day before yesterday', '2026-02-18T00:00:00-05:00', 'anchored'),
];

export const WEEKDAY: readonly CorpusCase[] = [
  c('next Monday', '2026-02-23T00:00:00-05:00', 'weekday'),
  c('this Friday', '2026-02-20T00:00:00-05:00', 'weekday'),
  c('last Wednesday', '2026-02-18T00:00:00-05:00', 'weekday'),
  c('monday', '2026-02-23T00:00:00-05:00', 'weekday'),
  c('Friday', '2026-02-27T00:00:00-05:00', 'weekday'),
  c('on Tuesday', '2026-02-24T00:00:00-05:00', 'weekday'),
  c('this sat', '2026-02-21T00:00:00-05:00', 'weekday'),
  c('next sun', '2026-03-01T00:00:00-05:00', 'weekday'),
  c('thu', '2026-02-26T00:00:00-05:00', 'weekday'),
  c('Friday next week', '2026-02-27T00:00:00-05:00', 'weekday'),
  c('monday last week', '2026-02-09T00:00:00-05:00', 'weekday'),
  c('wednesday this week', '2026-02-18T00:00:00-05:00', 'weekday'),
];

export const TIME_OF_DAY: readonly CorpusCase[] = [
  c('morning', '2026-02-20T09:00:00-05:00', 'time_of_day'),
  c('this morning', '2026-02-20T09:00:00-05:00', 'time_of_day'),
  c('noon', '2026-02-20T12:00:00-05:00', 'time_of_day'),
  c('at noon', '2026-02-20T12:00:00-05:00', 'time_of_day'),
  c('midday', '2026-02-20T12:00:00-05:00', 'time_of_day'),
  c('afternoon', '2026-02-20T14:00:00-05:00', 'time_of_day'),
  c('evening', '2026-02-20T18:00:00-05:00', 'time_of_day'),
  c('night', '2026-02-20T20:00:00-05:00', 'time_of_day'),
  c('midnight', '2026-02-21T00:00:00-05:00', 'time_of_day'),
  c('eob', '2026-02-20T17:00:00-05:00', 'time_of_day'),
  c('EOD', '2026-02-20T17:00:00-05:00', 'time_of_day'),
  c('by cob', '2026-02-20T17:00:00-05:00', 'time_of_day'),
  c('end of business', '2026-02-20T17:00:00-05:00', 'time_of_day'),
  c('close of business day', '2026-02-20T17:00:00-05:00', 'time_of_day'),
];

export const EXPLICIT_TIME: readonly CorpusCase[] = [
  c('2pm', '2026-02-20T14:00:00-05:00', 'explicit_time'),
  c('2:30pm', '2026-02-20T14:30:00-05:00', 'explicit_time'),
  c('2:30 PM', '2026-02-20T14:30:00-05:00', 'explicit_time'),
  c('14:00', '2026-02-20T14:00:00-05:00', 'explicit_time'),
  c('at 9', '2026-02-20T09:00:00-05:00', 'explicit_time'),
  c("9 o'clock", '2026-02-20T09:00:00-05:00', 'explicit_time'),
  c('7:45:30', '2026-02-20T07:45:30-05:00', 'explicit_time'),
  c('12am', '2026-02-20T00:00:00-05:00', 'explicit_time'),
  c('12pm', '2026-02-20T12:00:00-05:00', 'explicit_time'),
  c('24:00', '2026-02-21T00:00:00-05:00', 'explicit_time'),
  c('tuesday at 2', '2026-02-24T02:00:00-05:00', 'combined'),
  c('at 6:15 am', '2026-02-20T06:15:00-05:00', 'explicit_time'),
  c('9 in the morning', '2026-02-20T09:00:00-05:00', 'explicit_time'),
  c('8 at night', '2026-02-20T20:00:00-05:00', 'explicit_time'),
];

export const OFFSETS: readonly CorpusCase[] = [
  c('+2h', '2026-02-20T12:30:00-05:00', 'offset'),
  c('-30m', '2026-02-20T10:00:00-05:00', 'offset'),
  c('+1d2h', '2026-02-21T12:30:00-05:00', 'offset'),
  c('+1d2h30m', '2026-02-21T13:00:00-05:00', 'offset'),
  c('+90s', '2026-02-20T10:31:30-05:00', 'offset'),
  c('-2w3d', '2026-02-03T10:30:00-05:00', 'offset'),
  c('+1w', '2026-02-27T10:30:00-05:00', 'offset'),
  c('in 2 hours', '2026-02-20T12:30:00-05:00', 'offset'),
  c('in 3 days', '2026-02-23T10:30:00-05:00', 'offset'),
  c('in 30 minutes', '2026-02-20T11:00:00-05:00', 'offset'),
  c('in an hour', '2026-02-20T11:30:00-05:00', 'offset'),
  c('in half an hour', '2026-02-20T11:00:00-05:00', 'offset'),
  c('in 1.5 hours', '2026-02-20T12:00:00-05:00', 'offset'),
  c('in a week', '2026-02-27T10:30:00-05:00', 'offset'),
  c('in 2 hours and 30 minutes', '2026-02-20T13:00:00-05:00', 'offset'),
  c('in 1 month', '2026-03-20T10:30:00-04:00', 'offset'),
  c('in 1 year', '2027-02-20T10:30:00-05:00', 'offset'),
  c('3 days ago', '2026-02-17T10:30:00-05:00', 'offset'),
  c('2 weeks ago', '2026-02-06T10:30:00-05:00', 'offset'),
  c('an hour ago', '2026-02-20T09:30:00-05:00', 'offset'),
  c('45 seconds ago', '2026-02-20T10:29:15-05:00', 'offset'),
  c('2 hours from now', '2026-02-20T12:30:00-05:00', 'offset'),
  c('two days from now', '2026-02-22T10:30:00-05:00', 'offset'),
];

export const COMBINED: readonly CorpusCase[] = [
  c('next Tuesday at 2pm', '2026-02-24T14:00:00-05:00', 'combined'),
  c('tomorrow morning', '2026-02-21T09:00:00-05:00', 'combined'),
  c('next Friday evening', '2026-02-27T18:00:00-05:00', 'combined'),
  c('today at 14:30', '2026-02-20T14:30:00-05:00', 'combined'),
  c('in 2 days at noon', '2026-02-22T12:00:00-05:00', 'combined'),
  c('tomorrow at 9am', '2026-02-21T09:00:00-05:00', 'combined'),
  c('3pm tomorrow', '2026-02-21T15:00:00-05:00', 'combined'),
  c('tonight at 8', '2026-02-20T20:00:00-05:00', 'combined'),
  c('tomorrow evening at 7', '2026-02-21T19:00:00-05:00', 'combined'),
  c('monday at 10:30', '2026-02-23T10:30:00-05:00', 'combined'),
  c('yesterday afternoon', '2026-02-19T14:00:00-05:00', 'combined'),
  c('tomorrow at midnight', '2026-02-22T00:00:00-05:00', 'combined'),
  c('+1d at noon', '2026-02-21T12:00:00-05:00', 'combined'),
  c('friday eob', '2026-02-27T17:00:00-05:00', 'combined'),
  c('start of next month at 9am', '2026-03-01T09:00:00-05:00', 'combined'),
  c('end of month at 5pm', '2026-02-28T17:00:00-05:00', 'combined'),
  c('first Monday of March at 10am', '2026-03-02T10:00:00-05:00', 'combined'),
];

export const PERIOD_BOUNDARIES: readonly CorpusCase[] = [
  c('start of week', '2026-02-16T00:00:00-05:00', 'period_boundary'),
  c('end of week', '2026-02-22T23:59:59-05:00', 'period_boundary'),
  c('start of the month', '2026-02-01T00:00:00-05:00', 'period_boundary'),
  c('end of month', '2026-02-28T23:59:59-05:00', 'period_boundary'),
  c('start of next quarter', '2026-04-01T00:00:00-04:00', 'period_boundary'),
  c('end of quarter', '2026-03-31T23:59:59-04:00', 'period_boundary'),
  c('start of year', '2026-01-01T00:00:00-05:00', 'period_boundary'),
  c('end of year', '2026-12-31T23:59:59-05:00', 'period_boundary'),
  c('next quarter', '2026-04-01T00:00:00-04:00', 'period_boundary'),
  c('last quarter', '2025-10-01T00:00:00-04:00', 'period_boundary'),
  c('beginning of day', '2026-02-20T00:00:00-05:00', 'period_boundary'),
  c('end of day', '2026-02-20T23:59:59-05:00', 'period_boundary'),
  c('start of last month', '2026-01-01T00:00:00-05:00', 'period_boundary'),
  c('next week', '2026-02-23T00:00:00-05:00', 'period_boundary'),
  c('last week', '2026-02-09T00:00:00-05:00', 'period_boundary'),
  c('this month', '2026-02-01T00:00:00-05:00', 'period_boundary'),
  c('next month', '2026-03-01T00:00:00-05:00', 'period_boundary'),
  c('last year', '2025-01-01T00:00:00-05:00', 'period_boundary'),
  c('end of next week', '2026-03-01T23:59:59-05:00', 'period_boundary'),
  c('beginning of next year', '2027-01-01T00:00:00-05:00', 'period_boundary'),
  c('end of last quarter', '2025-12-31T23:59:59-05:00', 'period_boundary'),
  c('start of tomorrow', '2026-02-21T00:00:00-05:00', 'period_boundary'),
  c('end of today', '2026-02-20T23:59:59-05:00', 'period_boundary'),
];

export const ORDINAL: readonly CorpusCase[] = [
  c('first Monday of March', '2026-03-02T00:00:00-05:00', 'ordinal'),
  c('third Friday of next month', '2026-03-20T00:00:00-04:00', 'ordinal'),
  c('last Friday of this month', '2026-02-27T00:00:00-05:00', 'ordinal'),
  c('2nd Tuesday of 2027-01', '2027-01-12T00:00:00-05:00', 'ordinal'),
  c('first Monday of January', '2027-01-04T00:00:00-05:00', 'ordinal'),
  c('fourth Thursday of November 2026', '2026-11-26T00:00:00-05:00', 'ordinal'),
  c('the second Wednesday of last month', '2026-01-14T00:00:00-05:00', 'ordinal'),
  c('last Sunday of March', '2026-03-29T00:00:00-04:00', 'ordinal'),
  c('1st Friday in April', '2026-04-03T00:00:00-04:00', 'ordinal'),
  c('last day of this month', '2026-02-28T00:00:00-05:00', 'ordinal'),
  c('first day of next month', '2026-03-01T00:00:00-05:00', 'ordinal'),
];

export const CALENDAR_DATE: readonly CorpusCase[] = [
  c('March 15', '2026-03-15T00:00:00-04:00', 'calendar_date'),
  c('15 March 2027', '2027-03-15T00:00:00-04:00', 'calendar_date'),
  c('February 10', '2027-02-10T00:00:00-05:00', 'calendar_date'),
  c('Dec 25', '2026-12-25T00:00:00-05:00', 'calendar_date'),
  c('the 3rd of April', '2026-04-03T00:00:00-04:00', 'calendar_date'),
  c('March 15 at 3pm', '2026-03-15T15:00:00-04:00', 'combined'),
  c('2026-03-15 at 2pm', '2026-03-15T14:00:00-04:00', 'combined'),
];

/** A zone at the end: the words are read on its clock, the answer is in the case's zone (New York). */
export const NAMED_ZONES: readonly CorpusCase[] = [
  c('3pm PST', '2026-02-20T18:00:00-05:00', 'explicit_time'),
  c('July 15 at 3pm PST', '2026-07-15T19:00:00-04:00', 'combined'),
  c('3pm PDT', '2026-02-20T17:00:00-05:00', 'explicit_time'),
  c('15:00 Tokyo time', '2026-02-20T01:00:00-05:00', 'explicit_time'),
  c('9am CET', '2026-02-20T03:00:00-05:00', 'explicit_time'),
  c('noon in London', '2026-02-20T07:00:00-05:00', 'time_of_day'),
  c('tomorrow at 9am UTC+5:30', '2026-02-20T22:30:00-05:00', 'combined'),
  c('2pm America/Chicago', '2026-02-20T15:00:00-05:00', 'explicit_time'),
  c('3pm ET', '2026-02-20T15:00:00-05:00', 'explicit_time'),
  c('3pm (IST)', '2026-02-20T04:30:00-05:00', 'explicit_time'),
  c('next monday at 10:00 sao paulo time', '2026-02-23T08:00:00-05:00', 'combined'),
];

/** Business days, Saturday–Sunday weekend (the tool takes `weekend` or `locale` for others). */
export const BUSINESS_DAYS: readonly CorpusCase[] = [
  c('next business day', '2026-02-23T00:00:00-05:00', 'business_day'),
  c('previous business day', '2026-02-19T00:00:00-05:00', 'business_day'),
  c('in 3 business days', '2026-02-25T10:30:00-05:00', 'business_day'),
  c('in 2 working days', '2026-02-24T10:30:00-05:00', 'business_day'),
  c('3 business days ago', '2026-02-17T10:30:00-05:00', 'business_day'),
  c('ten business days from now', '2026-03-06T10:30:00-05:00', 'business_day'),
  c('next business day at 9am', '2026-02-23T09:00:00-05:00', 'combined'),
];

/** Quarters, halves and the week after next: the period's start (the answer also has its range). */
export const NAMED_PERIODS: readonly CorpusCase[] = [
  c('Q1 2027', '2027-01-01T00:00:00-05:00', 'period_boundary'),
  c('Q3', '2026-07-01T00:00:00-04:00', 'period_boundary'),
  c('2027-Q2', '2027-04-01T00:00:00-04:00', 'period_boundary'),
  c('second quarter of next year', '2027-04-01T00:00:00-04:00', 'period_boundary'),
  c('H2', '2026-07-01T00:00:00-04:00', 'period_boundary'),
  c('H1 2027', '2027-01-01T00:00:00-05:00', 'period_boundary'),
  c('end of Q1', '2026-03-31T23:59:59-04:00', 'period_boundary'),
  c('the week after next', '2026-03-02T00:00:00-05:00', 'period_boundary'),
  c('end of the week after next', '2026-03-08T23:59:59-04:00', 'period_boundary'),
];

export const PASSTHROUGH: readonly CorpusCase[] = [
  c('2026-03-15T14:00:00Z', '2026-03-15T10:00:00-04:00', 'passthrough'),
  c('2026-03-15T14:00:00+01:00', '2026-03-15T09:00:00-04:00', 'passthrough'),
  c('2026-03-15T14:00:00.250Z', '2026-03-15T10:00:00.250-04:00', 'passthrough'),
  c('2026-03-15', '2026-03-15T00:00:00-04:00', 'passthrough'),
  c('2026-03-15T09:00', '2026-03-15T09:00:00-04:00', 'passthrough'),
  c('2026-03-15 09:00:30', '2026-03-15T09:00:30-04:00', 'passthrough'),
];

const NY = 'America/New_York';

/** DST edges and unusual zones; expected values computed with Python's zoneinfo. */
export const ZONE_EDGES: readonly CorpusCase[] = [
  // New York, spring forward 2026-03-08 02:00 → 03:00.
  c('tomorrow at 2:30am', '2026-03-08T03:30:00-04:00', 'combined', {
    zone: NY,
    reference: '2026-03-07T17:00:00Z',
  }),
  c('in 1 day', '2026-03-08T12:00:00-04:00', 'offset', { zone: NY, reference: '2026-03-07T17:00:00Z' }),
  c('in 24 hours', '2026-03-08T13:00:00-04:00', 'offset', { zone: NY, reference: '2026-03-07T17:00:00Z' }),
  c('+1d', '2026-03-09T01:00:00-04:00', 'offset', { zone: NY, reference: '2026-03-08T06:00:00Z' }),
  c('in 48 hours', '2026-03-09T11:30:00-04:00', 'offset', { zone: NY, reference: '2026-03-07T15:30:00Z' }),
  c('in 2 days', '2026-03-09T10:30:00-04:00', 'offset', { zone: NY, reference: '2026-03-07T15:30:00Z' }),
  // New York, fall back 2026-11-01 02:00 → 01:00: 01:30 happens twice.
  c('tomorrow at 1:30am', '2026-11-01T01:30:00-04:00', 'combined', {
    zone: NY,
    reference: '2026-10-31T16:00:00Z',
  }),
  c('2026-11-01T01:30', '2026-11-01T01:30:00-04:00', 'passthrough', { zone: NY }),
  c('+1d', '2026-11-01T12:00:00-05:00', 'offset', { zone: NY, reference: '2026-10-31T16:00:00Z' }),
  c('+24h', '2026-11-01T11:00:00-05:00', 'offset', { zone: NY, reference: '2026-10-31T16:00:00Z' }),
  c('now', '2026-11-01T01:30:00-05:00', 'anchored', { zone: NY, reference: '2026-11-01T06:30:00Z' }),
  c('in 30 minutes', '2026-11-01T02:00:00-05:00', 'offset', { zone: NY, reference: '2026-11-01T06:30:00Z' }),
  c('30 minutes ago', '2026-11-01T01:00:00-05:00', 'offset', { zone: NY, reference: '2026-11-01T06:30:00Z' }),
  c('-1h', '2026-11-01T01:30:00-04:00', 'offset', { zone: NY, reference: '2026-11-01T06:30:00Z' }),
  // London: spring forward 2026-03-29 01:00 → 02:00, fall back 2026-10-25 02:00 → 01:00.
  c('tomorrow at 1:30am', '2026-03-29T02:30:00+01:00', 'combined', {
    zone: 'Europe/London',
    reference: '2026-03-28T12:00:00Z',
  }),
  c('tomorrow at 1:30am', '2026-10-25T01:30:00+01:00', 'combined', {
    zone: 'Europe/London',
    reference: '2026-10-24T12:00:00Z',
  }),
  c('in 1 day', '2026-10-25T13:00:00+00:00', 'offset', {
    zone: 'Europe/London',
    reference: '2026-10-24T12:00:00Z',
  }),
  // Sydney: fall back 2026-04-05 03:00 → 02:00, spring forward 2026-10-04 02:00 → 03:00.
  c('tomorrow at 2:30am', '2026-04-05T02:30:00+11:00', 'combined', {
    zone: 'Australia/Sydney',
    reference: '2026-04-04T00:00:00Z',
  }),
  c('tomorrow at 2:30am', '2026-10-04T03:30:00+11:00', 'combined', {
    zone: 'Australia/Sydney',
    reference: '2026-10-03T00:00:00Z',
  }),
  // Lord Howe: a 30-minute DST shift (02:00 → 02:30 in October, 02:00 → 01:30 in April).
  c('tomorrow at 2:15am', '2026-10-04T02:45:00+11:00', 'combined', {
    zone: 'Australia/Lord_Howe',
    reference: '2026-10-03T00:00:00Z',
  }),
  c('tomorrow at 1:45am', '2026-04-05T01:45:00+11:00', 'combined', {
    zone: 'Australia/Lord_Howe',
    reference: '2026-04-04T00:00:00Z',
  }),
  // Kathmandu: +05:45 all year.
  c('now', '2026-02-20T21:15:00+05:45', 'anchored', { zone: 'Asia/Kathmandu' }),
  c('tomorrow at 9am', '2026-02-21T09:00:00+05:45', 'combined', { zone: 'Asia/Kathmandu' }),
  c('end of month', '2026-02-28T23:59:59+05:45', 'period_boundary', { zone: 'Asia/Kathmandu' }),
  // Apia skipped 2011-12-30 entirely (-10:00 → +14:00).
  c('tomorrow', '2011-12-31T00:00:00+14:00', 'anchored', {
    zone: 'Pacific/Apia',
    reference: '2011-12-29T22:00:00Z',
  }),
  c('in 1 day', '2011-12-31T12:00:00+14:00', 'offset', {
    zone: 'Pacific/Apia',
    reference: '2011-12-29T22:00:00Z',
  }),
  c('friday', '2011-12-31T00:00:00+14:00', 'weekday', {
    zone: 'Pacific/Apia',
    reference: '2011-12-29T22:00:00Z',
  }),
  c('in 24 hours', '2011-12-31T12:00:00+14:00', 'offset', {
    zone: 'Pacific/Apia',
    reference: '2011-12-29T22:00:00Z',
  }),
  // Chatham: +12:45 / +13:45, changing at 02:45 standard time.
  c('tomorrow at 3am', '2026-09-27T04:00:00+13:45', 'combined', {
    zone: 'Pacific/Chatham',
    reference: '2026-09-26T00:00:00Z',
  }),
  c('tomorrow at 3am', '2026-04-05T03:00:00+13:45', 'combined', {
    zone: 'Pacific/Chatham',
    reference: '2026-04-04T00:00:00Z',
  }),
  // Santiago springs forward at midnight: 2026-09-06 starts at 01:00.
  c('tomorrow', '2026-09-06T01:00:00-03:00', 'anchored', {
    zone: 'America/Santiago',
    reference: '2026-09-05T12:00:00Z',
  }),
];

/** Every case, in one list (the bench runs them all). */
export const RESOLVE_CORPUS: readonly CorpusCase[] = [
  ...ANCHORED,
  ...WEEKDAY,
  ...TIME_OF_DAY,
  ...EXPLICIT_TIME,
  ...OFFSETS,
  ...COMBINED,
  ...PERIOD_BOUNDARIES,
  ...ORDINAL,
  ...CALENDAR_DATE,
  ...PASSTHROUGH,
  ...ZONE_EDGES,
  ...NAMED_ZONES,
  ...BUSINESS_DAYS,
  ...NAMED_PERIODS,
];
