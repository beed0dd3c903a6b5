import { describe, expect, it } from 'vitest';
import { isDomainError } from '../../../../lambdas/core/errors.js';
import { parseRule } from '../../../../lambdas/core/time/recurrence/parse-rule.js';

/** The INVALID_RRULE message for `text`, or a failure if it parses. */
function rejection(text: string): string {
  try {
    parseRule(text);
  } catch (error) {
    if (isDomainError(error, 'INVALID_RRULE')) return error.message;
    throw error;
  }
  throw new Error(`"${text}" was accepted`);
}

describe('parse-rule', () => {
  describe('parseRule', () => {
    it('parses every part into numbers, weekday 0 being Monday', () => {
      expect(parseRule('FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR,2TU,SU;BYSETPOS=-1;WKST=SU;COUNT=5')).toEqual({
        freq: 1,
        interval: 2,
        wkst: 6,
        count: 5,
        bysetpos: [-1],
        byday: [{ weekday: 4, nth: -1 }, { weekday: 1, nth: 2 }, { weekday: 6 }],
      });
    });

    it('accepts an RRULE: prefix, any letter case, spaces and a trailing semicolon', () => {
      expect(parseRule(' rrule:freq=weekly; byday=mo,we ;')).toEqual({
        freq: 2,
        interval: 1,
        wkst: 0,
        byday: [{ weekday: 0 }, { weekday: 2 }],
      });
    });

    it('reads UNTIL as a UTC instant', () => {
      expect(parseRule('FREQ=DAILY;UNTIL=20261231T235959Z').until).toBe(Date.UTC(2026, 11, 31, 23, 59, 59));
    });

    it('sorts and de-duplicates number lists, so BYSETPOS counts times in order', () => {
      expect(parseRule('FREQ=DAILY;BYHOUR=17,9,17;BYMINUTE=30,0;BYSETPOS=1').byhour).toEqual([9, 17]);
    });

    it('says FREQ=SOMETIMES is not a frequency and lists the real ones', () => {
      expect(rejection('FREQ=SOMETIMES')).toMatch(
        /FREQ=SOMETIMES is not a frequency: use one of YEARLY, MONTHLY/,
      );
    });

    it('requires FREQ', () => {
      expect(rejection('BYDAY=MO')).toMatch(/FREQ is required/);
      expect(rejection('')).toMatch(/FREQ is required/);
    });

    it('tells to append Z to an UNTIL without it, and to add a time to a date-only UNTIL', () => {
      expect(rejection('FREQ=DAILY;UNTIL=20261231T235959')).toMatch(/"UNTIL=20261231T235959Z"/);
      expect(rejection('FREQ=DAILY;UNTIL=20261231')).toMatch(/"UNTIL=20261231T235959Z"/);
    });

    it.each([
      ['FREQ=DAILY;BYHOUR=24', /BYHOUR=24 is out of range: use 0…23/],
      ['FREQ=MONTHLY;BYMONTHDAY=0', /BYMONTHDAY=0 is out of range/],
      ['FREQ=YEARLY;BYWEEKNO=54', /BYWEEKNO=54 is out of range/],
      ['FREQ=DAILY;INTERVAL=0', /INTERVAL=0 is out of range/],
      ['FREQ=DAILY;COUNT=x', /COUNT must be a whole number/],
      ['FREQ=WEEKLY;BYDAY=MON', /BYDAY entry "MON" is not a weekday/],
      ['FREQ=DAILY;WKST=XX', /WKST=XX is not a weekday/],
      ['FREQ=DAILY;FOO=1', /Unknown rule part "FOO"/],
      ['FREQ=DAILY;FREQ=WEEKLY', /FREQ appears twice/],
      ['FREQ=DAILY;COUNT', /"COUNT" is not NAME=VALUE/],
      ['FREQ=DAILY;COUNT=3;UNTIL=20261231T000000Z', /COUNT and UNTIL cannot both be given/],
      ['FREQ=WEEKLY;BYDAY=2MO', /BYDAY ordinals such as "2TU" need FREQ=MONTHLY or FREQ=YEARLY/],
      ['FREQ=YEARLY;BYWEEKNO=1;BYDAY=1MO', /cannot be combined with BYWEEKNO/],
      ['FREQ=MONTHLY;BYWEEKNO=1', /BYWEEKNO needs FREQ=YEARLY/],
      ['FREQ=WEEKLY;BYMONTHDAY=1', /BYMONTHDAY cannot be used with FREQ=WEEKLY/],
      ['FREQ=MONTHLY;BYYEARDAY=1', /BYYEARDAY cannot be used with FREQ=MONTHLY/],
      ['FREQ=MONTHLY;BYSETPOS=1', /BYSETPOS picks from the set other BY\* parts build/],
      ['FREQ=YEARLY;BYMONTH=2,4;BYMONTHDAY=31', /the rule would never occur/],
      ['DTSTART:20260101T090000\nRRULE:FREQ=DAILY', /give the start as "dtstart"/],
    ])('rejects %j with a message saying what to fix', (text, message) => {
      expect(rejection(text)).toMatch(message);
    });

    it('names the offending part in the error details', () => {
      try {
        parseRule('FREQ=DAILY;BYHOUR=99');
        expect.unreachable();
      } catch (error) {
        expect(isDomainError(error, 'INVALID_RRULE') && error.details).toEqual({ part: 'BYHOUR' });
      }
    });
  });
});
