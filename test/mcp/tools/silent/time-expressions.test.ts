import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../../../support/mcp-client.js';
import { type SilentWorld, startSilentWorld } from './silent-world.js';

interface Resolved {
  resolved_utc: string;
  resolved_local: string;
  expression_timezone?: string;
  ambiguous?: true;
  rule?: string;
  alternatives?: Array<{ resolved_utc: string; rule: string }>;
  range?: { start: string; end: string; end_utc: string };
  matched_category: string;
}

/**
 * Issue 22, build item 8: forms agents send every day that resolve_datetime refused ("3pm PST",
 * "15:00 Tokyo time", "next business day", "Q1 2027"), over Streamable HTTP with the SDK's client.
 * Figures checked by hand against Python's zoneinfo; the property runs are in
 * test/core/time/resolve/expression-oracle.test.ts.
 */
describe('resolve_datetime with the expressions agents send', () => {
  let world: SilentWorld;
  // Friday 27 November 2026, 11:00 in New York.
  beforeAll(async () => {
    world = await startSilentWorld('2026-11-27T16:00:00Z', { defaultTimezone: 'America/New_York' });
  });
  afterAll(() => world?.close());

  const resolve = (expression: string, extra: Record<string, unknown> = {}) =>
    world.ok<Resolved>('resolve_datetime', { expression, ...extra });
  const readings = (answer: Resolved) => [
    answer.resolved_utc,
    ...(answer.alternatives ?? []).map((a) => a.resolved_utc),
  ];

  describe('a zone named in the expression', () => {
    it('reads "15:00 Tokyo time" and "noon in London" on those cities\' clocks, answering in New York', async () => {
      // "tomorrow" is the caller's (Saturday 28th); in Tokyo it is already Saturday, so Tokyo's
      // tomorrow (Sunday) is offered as the other reading.
      const tokyo = await resolve('tomorrow 15:00 Tokyo time');
      expect(tokyo).toMatchObject({
        resolved_utc: '2026-11-28T06:00:00+00:00',
        resolved_local: '2026-11-28T01:00:00-05:00',
        expression_timezone: 'Asia/Tokyo',
        alternatives: [expect.objectContaining({ resolved_utc: '2026-11-29T06:00:00+00:00' })],
      });
      expect((await resolve('noon in London')).resolved_utc).toBe('2026-11-27T12:00:00+00:00');
      expect((await resolve('9am CET')).resolved_utc).toBe('2026-11-27T08:00:00+00:00');
    });

    it('reads "3pm PST" in July as UTC−8, with Los Angeles\' PDT reading and the Philippine one as alternatives', async () => {
      const answer = await resolve('July 15 at 3pm PST');
      expect(answer.resolved_utc).toBe('2027-07-15T23:00:00+00:00');
      expect(answer.ambiguous).toBe(true);
      expect(answer.alternatives).toEqual([
        expect.objectContaining({
          resolved_utc: '2027-07-15T22:00:00+00:00',
          rule: expect.stringContaining('America/Los_Angeles'),
        }),
        expect.objectContaining({
          resolved_utc: '2027-07-15T07:00:00+00:00',
          rule: expect.stringContaining('Philippine'),
        }),
      ]);
    });

    it('answers "3pm IST" and "3pm CST" with every zone the abbreviation names', async () => {
      const ist = await resolve('2026-12-01 at 3pm IST');
      // India (+05:30) chosen; Israel (+02:00) and Ireland's IST (+01:00) offered.
      expect(readings(ist)).toEqual([
        '2026-12-01T09:30:00+00:00',
        expect.any(String),
        expect.any(String),
        ...(ist.alternatives!.length > 2 ? [expect.any(String)] : []),
      ]);
      expect(readings(ist)).toEqual(
        expect.arrayContaining(['2026-12-01T13:00:00+00:00', '2026-12-01T14:00:00+00:00']),
      );
      const cst = await resolve('2026-12-01 at 3pm CST');
      expect(cst.resolved_utc).toBe('2026-12-01T21:00:00+00:00');
      expect(readings(cst)).toEqual(
        expect.arrayContaining(['2026-12-01T07:00:00+00:00', '2026-12-01T20:00:00+00:00']),
      );
    });

    it("refuses a city that is no zone's, rather than dropping it", async () => {
      const error = errorOf(await world.call('resolve_datetime', { expression: '3pm San Francisco' }));
      expect(error.code).toBe('UNRECOGNIZED_EXPRESSION');
      expect(error.message).toContain('"3pm"');
      // …and says how a zone can be written.
      expect(error.message).toContain('"3pm PST"');
    });
  });

  describe('business days', () => {
    it("skips the weekend: Friday's next business day is Monday, 3 business days ago is Tuesday", async () => {
      expect((await resolve('next business day')).resolved_local).toBe('2026-11-30T00:00:00-05:00');
      expect((await resolve('3 business days ago')).resolved_local).toBe('2026-11-24T11:00:00-05:00');
      expect((await resolve('in 3 business days')).resolved_local).toBe('2026-12-02T11:00:00-05:00');
    });

    it('counts with a Friday–Saturday weekend, given as days or by the locale', async () => {
      const byDays = await resolve('next business day', { weekend: ['fri', 'sat'] });
      const byLocale = await resolve('next business day', { locale: 'he-IL' });
      expect(byDays.resolved_local).toBe('2026-11-29T00:00:00-05:00');
      expect(byLocale.resolved_local).toBe('2026-11-29T00:00:00-05:00');
    });

    it('refuses a weekend of seven days', async () => {
      const error = errorOf(
        await world.call('resolve_datetime', {
          expression: 'next business day',
          weekend: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        }),
      );
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.message).toContain('no business day');
    });
  });

  describe('quarters, halves and weeks', () => {
    it('answers "Q1 2027" and "H2" with their range', async () => {
      expect((await resolve('Q1 2027')).range).toEqual({
        start: '2027-01-01T00:00:00-05:00',
        end: '2027-04-01T00:00:00-04:00',
        end_utc: '2027-04-01T04:00:00+00:00',
      });
      // Said in November, H1 without a year is next year's; this year's is offered.
      const h1 = await resolve('H1');
      expect(h1.range?.start).toBe('2027-01-01T00:00:00-05:00');
      expect(h1.alternatives).toEqual([
        expect.objectContaining({ resolved_utc: '2026-01-01T05:00:00+00:00' }),
      ]);
      expect((await resolve('H2')).range?.end).toBe('2027-01-01T00:00:00-05:00');
    });

    it('reads "the week after next" and "end of next week"', async () => {
      expect((await resolve('the week after next')).range).toMatchObject({
        start: '2026-12-07T00:00:00-05:00',
        end: '2026-12-14T00:00:00-05:00',
      });
      expect((await resolve('end of next week')).resolved_local).toBe('2026-12-06T23:59:59-05:00');
    });
  });

  it('quick_add_event reads the same forms', async () => {
    const result = await world.ok<{ understood: { start: string; summary: string } }>('quick_add_event', {
      calendar_id: world.calendars.ny,
      text: 'Sync with Tokyo next business day at 9am Tokyo time',
    });
    expect(result.understood).toMatchObject({
      summary: 'Sync with Tokyo',
      start: '2026-11-29T19:00:00-05:00',
    });
    // "in London" at the end is the time's zone and, as before, the place.
    const lunch = await world.ok<{ understood: { start: string; location: string } }>('quick_add_event', {
      calendar_id: world.calendars.ny,
      text: 'Lunch tomorrow at noon in London',
    });
    expect(lunch.understood).toMatchObject({ start: '2026-11-28T07:00:00-05:00', location: 'London' });
  });

  it('quick_add_event refuses a period where a day is needed, rather than creating it on the first day', async () => {
    const error = errorOf(
      await world.call('quick_add_event', { calendar_id: world.calendars.ny, text: 'Board review Q1 2027' }),
    );
    expect(error.code).toBe('UNRECOGNIZED_EXPRESSION');
    expect(error.message).toContain('"Q1 2027"');
  });
});
