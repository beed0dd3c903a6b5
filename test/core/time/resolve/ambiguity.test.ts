import { describe, expect, it } from 'vitest';
import { resolveDatetime } from '../../../../lambdas/core/time/resolve/resolve-datetime.js';
import { frozenAt } from './helpers.js';

const NY = 'America/New_York';
// Noon EST on each day of the week Monday 2026-02-16 … Sunday 2026-02-22 (last week: Feb 9–15).
const MONDAY = '2026-02-16T17:00:00Z';
const TUESDAY = '2026-02-17T17:00:00Z';
const WEDNESDAY = '2026-02-18T17:00:00Z';
const THURSDAY = '2026-02-19T17:00:00Z';
const FRIDAY = '2026-02-20T17:00:00Z';
const SATURDAY = '2026-02-21T17:00:00Z';

/** The chosen local time and the other readings' local times (empty when unambiguous). */
function readings(expression: string, reference: string) {
  const result = resolveDatetime(frozenAt(reference), { expression, timezone: NY });
  return {
    chosen: result.resolved_local,
    ambiguous: result.ambiguous ?? false,
    others: (result.alternatives ?? []).map((a) => a.resolved_local),
  };
}

describe('resolveDatetime ambiguity', () => {
  describe('last / this / next + weekday', () => {
    it.each([
      // "last X": the most recent X before today; the other reading is X of last week.
      [TUESDAY, 'last Wednesday', '2026-02-11T00:00:00-05:00', []],
      [WEDNESDAY, 'last Wednesday', '2026-02-11T00:00:00-05:00', []],
      [THURSDAY, 'last Wednesday', '2026-02-18T00:00:00-05:00', ['2026-02-11T00:00:00-05:00']],
      [FRIDAY, 'last Wednesday', '2026-02-18T00:00:00-05:00', ['2026-02-11T00:00:00-05:00']],
      // "next X": X of next week; the other reading is the first X after today.
      [MONDAY, 'next Tuesday', '2026-02-24T00:00:00-05:00', ['2026-02-17T00:00:00-05:00']],
      [TUESDAY, 'next Tuesday', '2026-02-24T00:00:00-05:00', []],
      [WEDNESDAY, 'next Tuesday', '2026-02-24T00:00:00-05:00', []],
      // "this X": X of this week, even if past; the other reading is the coming X.
      [THURSDAY, 'this Friday', '2026-02-20T00:00:00-05:00', []],
      [FRIDAY, 'this Friday', '2026-02-20T00:00:00-05:00', []],
      [SATURDAY, 'this Friday', '2026-02-20T00:00:00-05:00', ['2026-02-27T00:00:00-05:00']],
    ])('on %s, "%s" is %s, other readings %j', (reference, expression, chosen, others) => {
      expect(readings(expression, reference)).toEqual({ chosen, ambiguous: others.length > 0, others });
    });

    it('reads the bug report\'s "last Wednesday" on Friday 2026-02-20 as Feb 18, as chrono-node and dateutil do', () => {
      const result = resolveDatetime(frozenAt(FRIDAY), { expression: 'last Wednesday', timezone: NY });
      expect(result).toMatchObject({
        resolved_local: '2026-02-18T00:00:00-05:00',
        ambiguous: true,
        rule: 'the most recent Wednesday before today',
        alternatives: [
          {
            resolved_utc: '2026-02-11T05:00:00+00:00',
            resolved_local: '2026-02-11T00:00:00-05:00',
            interpretation: 'Wednesday, February 11, 2026 at 12:00 AM',
            rule: 'Wednesday of last week (weeks run Monday–Sunday)',
          },
        ],
      });
    });

    it('keeps an explicit week unambiguous: "Wednesday last week", "Tuesday next week"', () => {
      expect(readings('Wednesday last week', FRIDAY)).toEqual({
        chosen: '2026-02-11T00:00:00-05:00',
        ambiguous: false,
        others: [],
      });
      expect(readings('Tuesday next week', MONDAY).ambiguous).toBe(false);
    });
  });

  describe('a bare hour without am/pm', () => {
    it.each([
      ['at 5', '2026-02-20T05:00:00-05:00', ['2026-02-20T17:00:00-05:00']],
      ['tomorrow at 7:30', '2026-02-21T07:30:00-05:00', ['2026-02-21T19:30:00-05:00']],
      ["9 o'clock", '2026-02-20T09:00:00-05:00', ['2026-02-20T21:00:00-05:00']],
      ['5pm', '2026-02-20T17:00:00-05:00', []],
      ['at 6:15 am', '2026-02-20T06:15:00-05:00', []],
      ['14:00', '2026-02-20T14:00:00-05:00', []],
      ['07:45', '2026-02-20T07:45:00-05:00', []],
      ['tonight at 8', '2026-02-20T20:00:00-05:00', []],
      ['tomorrow evening at 7', '2026-02-21T19:00:00-05:00', []],
      ['9 in the morning', '2026-02-20T09:00:00-05:00', []],
    ])('"%s" is %s, other readings %j', (expression, chosen, others) => {
      expect(readings(expression, FRIDAY)).toEqual({ chosen, ambiguous: others.length > 0, others });
    });
  });

  describe('numeric dates', () => {
    it.each([
      ['03/04/2026', '2026-03-04T00:00:00-05:00', ['2026-04-03T00:00:00-04:00']],
      ['03/04/2026 at 2pm', '2026-03-04T14:00:00-05:00', ['2026-04-03T14:00:00-04:00']],
      ['13/04/2026', '2026-04-13T00:00:00-04:00', []],
      ['04/13/2026', '2026-04-13T00:00:00-04:00', []],
      ['04/04/2026', '2026-04-04T00:00:00-04:00', []],
    ])('"%s" is %s (month first), other readings %j', (expression, chosen, others) => {
      expect(readings(expression, FRIDAY)).toEqual({ chosen, ambiguous: others.length > 0, others });
    });

    it('refuses a numeric date that is no date either way', () => {
      expect(() => resolveDatetime(frozenAt(FRIDAY), { expression: '31/31/2026', timezone: NY })).toThrow(
        /Cannot read "31\/31\/2026"/,
      );
    });
  });

  describe('next week / next month', () => {
    it.each([
      [FRIDAY, 'next week', '2026-02-23T00:00:00-05:00', ['2026-02-27T12:00:00-05:00']],
      [MONDAY, 'next week', '2026-02-23T00:00:00-05:00', ['2026-02-23T12:00:00-05:00']],
      [FRIDAY, 'next month', '2026-03-01T00:00:00-05:00', ['2026-03-20T12:00:00-04:00']],
      [FRIDAY, 'last week', '2026-02-09T00:00:00-05:00', []],
      [FRIDAY, 'start of next week', '2026-02-23T00:00:00-05:00', []],
    ])('on %s, "%s" is %s, other readings %j', (reference, expression, chosen, others) => {
      expect(readings(expression, reference)).toEqual({ chosen, ambiguous: others.length > 0, others });
    });
  });

  describe('end of week', () => {
    it.each([
      [THURSDAY, 'end of week', '2026-02-22T23:59:59-05:00', ['2026-02-20T17:00:00-05:00']],
      [FRIDAY, 'end of the week', '2026-02-22T23:59:59-05:00', ['2026-02-20T17:00:00-05:00']],
      [SATURDAY, 'end of week', '2026-02-22T23:59:59-05:00', ['2026-02-20T17:00:00-05:00']],
      [FRIDAY, 'end of next week', '2026-03-01T23:59:59-05:00', ['2026-02-27T17:00:00-05:00']],
      [FRIDAY, 'end of month', '2026-02-28T23:59:59-05:00', []],
    ])('on %s, "%s" is %s, other readings %j', (reference, expression, chosen, others) => {
      expect(readings(expression, reference)).toEqual({ chosen, ambiguous: others.length > 0, others });
    });
  });

  it('reports no ambiguity for RFC 3339 and for forms with one reading', () => {
    for (const expression of ['2026-03-15T09:00', 'tomorrow', 'in 2 hours', 'first Monday of March', 'noon'])
      expect(readings(expression, FRIDAY).ambiguous, expression).toBe(false);
  });
});
