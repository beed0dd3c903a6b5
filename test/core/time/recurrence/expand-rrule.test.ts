import { describe, expect, it } from 'vitest';
import { type ErrorCode, isDomainError } from '../../../../lambdas/core/errors.js';
import {
  DEFAULT_PAGE_SIZE,
  type ExpandRruleInput,
  expandRrule,
  MAX_INSTANCES,
} from '../../../../lambdas/core/time/recurrence/expand-rrule.js';

const WEEKDAYS_9AM: ExpandRruleInput = {
  rrule: 'FREQ=WEEKLY;BYDAY=MO,WE,FR',
  dtstart: '2026-03-02T09:00:00',
  timezone: 'America/New_York',
};

function starts(input: ExpandRruleInput): string[] {
  return expandRrule(input).instances.map((i) => i.start);
}

function failure(input: ExpandRruleInput): {
  code: ErrorCode;
  message: string;
  details: Record<string, unknown>;
} {
  try {
    expandRrule(input);
  } catch (error) {
    if (isDomainError(error)) return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error('expandRrule succeeded');
}

describe('expand-rrule', () => {
  describe('expandRrule', () => {
    it('returns instances with UTC start/end, the local start and the zone', () => {
      // Arrange / Act
      const result = expandRrule({ ...WEEKDAYS_9AM, count: 2, durationMinutes: 30 });

      // Assert
      expect(result).toEqual({
        instances: [
          {
            start: '2026-03-02T14:00:00+00:00',
            end: '2026-03-02T14:30:00+00:00',
            localStart: '2026-03-02T09:00:00-05:00',
          },
          {
            start: '2026-03-04T14:00:00+00:00',
            end: '2026-03-04T14:30:00+00:00',
            localStart: '2026-03-04T09:00:00-05:00',
          },
        ],
        truncated: true,
        nextAfter: '2026-03-06T14:00:00+00:00',
        timezone: 'America/New_York',
      });
    });

    it('answers the spec example: the last Friday of each month of 2026', () => {
      const result = expandRrule({
        rrule: 'FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1',
        dtstart: '2026-01-01T10:00:00',
        timezone: 'America/New_York',
        count: 12,
      });
      expect(result.instances.map((i) => i.localStart.slice(0, 10))).toEqual([
        '2026-01-30',
        '2026-02-27',
        '2026-03-27',
        '2026-04-24',
        '2026-05-29',
        '2026-06-26',
        '2026-07-31',
        '2026-08-28',
        '2026-09-25',
        '2026-10-30',
        '2026-11-27',
        '2026-12-25',
      ]);
    });

    describe('paging', () => {
      it(`returns ${DEFAULT_PAGE_SIZE} instances of an unbounded rule, marked truncated, with where to continue`, () => {
        const result = expandRrule(WEEKDAYS_9AM);
        // 33 full weeks of Mon/Wed/Fri, then Monday 19 October is the 100th; Wednesday is next.
        expect(result.instances).toHaveLength(DEFAULT_PAGE_SIZE);
        expect(result.instances.at(-1)?.localStart).toBe('2026-10-19T09:00:00-04:00');
        expect(result.truncated).toBe(true);
        expect(result.nextAfter).toBe('2026-10-21T13:00:00+00:00');
      });

      it('continues exactly where the previous page stopped when next_after is passed as after', () => {
        const all = starts({ ...WEEKDAYS_9AM, count: 60 });
        const pages: string[] = [];
        let after: string | undefined;
        for (let page = 0; page < 6; page++) {
          const result = expandRrule({ ...WEEKDAYS_9AM, count: 10, after });
          pages.push(...result.instances.map((i) => i.start));
          after = result.nextAfter;
        }
        expect(pages).toEqual(all);
      });

      it('is not truncated when the rule ends within the page', () => {
        const result = expandRrule({ ...WEEKDAYS_9AM, rrule: 'FREQ=DAILY;COUNT=5' });
        expect(result.instances).toHaveLength(5);
        expect(result.truncated).toBe(false);
        expect(result).not.toHaveProperty('nextAfter');
      });

      it('is truncated when count cuts a rule short of its COUNT', () => {
        const result = expandRrule({ ...WEEKDAYS_9AM, rrule: 'FREQ=DAILY;COUNT=5', count: 4 });
        expect(result.instances).toHaveLength(4);
        expect(result.truncated).toBe(true);
        expect(result.nextAfter).toBe('2026-03-06T14:00:00+00:00');
      });

      it('is not truncated when count equals what is left', () => {
        expect(expandRrule({ ...WEEKDAYS_9AM, rrule: 'FREQ=DAILY;COUNT=5', count: 5 }).truncated).toBe(false);
      });

      it(`accepts count up to ${MAX_INSTANCES} and refuses more with OUT_OF_RANGE`, () => {
        expect(expandRrule({ ...WEEKDAYS_9AM, count: MAX_INSTANCES }).instances).toHaveLength(MAX_INSTANCES);
        expect(failure({ ...WEEKDAYS_9AM, count: MAX_INSTANCES + 1 })).toMatchObject({
          code: 'OUT_OF_RANGE',
          details: { field: 'count' },
        });
        expect(failure({ ...WEEKDAYS_9AM, count: 0 }).code).toBe('OUT_OF_RANGE');
      });
    });

    describe('windows', () => {
      it('keeps instances whose start is within [after, before], both ends included', () => {
        expect(
          starts({ ...WEEKDAYS_9AM, after: '2026-03-04T14:00:00Z', before: '2026-03-09T09:00:00-04:00' }),
        ).toEqual(['2026-03-04T14:00:00+00:00', '2026-03-06T14:00:00+00:00', '2026-03-09T13:00:00+00:00']);
      });

      it('stops at UNTIL, compared as an instant', () => {
        expect(starts({ ...WEEKDAYS_9AM, rrule: 'FREQ=DAILY;UNTIL=20260304T140000Z' })).toEqual([
          '2026-03-02T14:00:00+00:00',
          '2026-03-03T14:00:00+00:00',
          '2026-03-04T14:00:00+00:00',
        ]);
      });

      it('counts COUNT from DTSTART even when the window starts later', () => {
        expect(
          starts({ ...WEEKDAYS_9AM, rrule: 'FREQ=DAILY;COUNT=5', after: '2026-03-05T00:00:00Z' }),
        ).toEqual(['2026-03-05T14:00:00+00:00', '2026-03-06T14:00:00+00:00']);
      });

      it('refuses a window whose after is later than before', () => {
        expect(
          failure({ ...WEEKDAYS_9AM, after: '2026-03-05T00:00:00Z', before: '2026-03-04T00:00:00Z' }),
        ).toMatchObject({
          code: 'INVALID_INPUT',
          message: expect.stringMatching(/swap them/),
        });
      });
    });

    describe('exdates', () => {
      it('leaves out instances whose local start is listed', () => {
        expect(
          starts({ ...WEEKDAYS_9AM, count: 3, exdates: ['2026-03-04T09:00:00', '2026-03-05T09:00'] }),
        ).toEqual(['2026-03-02T14:00:00+00:00', '2026-03-06T14:00:00+00:00', '2026-03-09T13:00:00+00:00']);
      });

      it('matches an exdate in a DST gap to the instance the gap moved', () => {
        expect(
          starts({
            rrule: 'FREQ=DAILY;COUNT=3',
            dtstart: '2026-03-07T02:30',
            timezone: 'America/New_York',
            exdates: ['2026-03-08T02:30'],
          }),
        ).toEqual(['2026-03-07T07:30:00+00:00', '2026-03-09T06:30:00+00:00']);
      });

      it('refuses a malformed exdate with INVALID_DATETIME naming it', () => {
        expect(failure({ ...WEEKDAYS_9AM, exdates: ['2026-03-04T09:00:00', 'next tuesday'] })).toMatchObject({
          code: 'INVALID_DATETIME',
          details: { field: 'exdates[1]' },
        });
      });
    });

    describe('errors', () => {
      it('refuses FREQ=SOMETIMES with INVALID_RRULE', () => {
        expect(failure({ ...WEEKDAYS_9AM, rrule: 'FREQ=SOMETIMES' })).toMatchObject({
          code: 'INVALID_RRULE',
          message: expect.stringMatching(/use one of YEARLY/),
        });
      });

      it('refuses an UNTIL without Z with INVALID_RRULE saying to append it', () => {
        expect(failure({ ...WEEKDAYS_9AM, rrule: 'FREQ=DAILY;UNTIL=20261231T090000' }).message).toMatch(
          /UNTIL=20261231T090000Z/,
        );
      });

      it('refuses an unknown zone with INVALID_TIMEZONE and suggestions', () => {
        expect(failure({ ...WEEKDAYS_9AM, timezone: 'America/New_Yrok' })).toMatchObject({
          code: 'INVALID_TIMEZONE',
          details: { suggestions: expect.arrayContaining(['America/New_York']) },
        });
      });

      it('refuses a dtstart with an offset or in another shape with INVALID_DATETIME', () => {
        expect(failure({ ...WEEKDAYS_9AM, dtstart: '2026-03-02T09:00:00Z' })).toMatchObject({
          code: 'INVALID_DATETIME',
          details: { field: 'dtstart' },
        });
        expect(failure({ ...WEEKDAYS_9AM, dtstart: 'tomorrow' }).code).toBe('INVALID_DATETIME');
      });

      it('refuses a window bound without offset with INVALID_DATETIME naming it', () => {
        expect(failure({ ...WEEKDAYS_9AM, after: '2026-03-02T09:00:00' })).toMatchObject({
          code: 'INVALID_DATETIME',
          details: { field: 'after' },
        });
      });

      it('refuses a negative or fractional duration with INVALID_DURATION', () => {
        expect(failure({ ...WEEKDAYS_9AM, durationMinutes: -5 }).code).toBe('INVALID_DURATION');
        expect(failure({ ...WEEKDAYS_9AM, durationMinutes: 1.5 }).code).toBe('INVALID_DURATION');
      });
    });
  });
});
