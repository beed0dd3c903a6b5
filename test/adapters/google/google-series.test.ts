import { describe, expect, it } from 'vitest';
import {
  endAfter,
  ruleCount,
  shiftByEdit,
  untilBefore,
  withRuleEnd,
} from '../../../lambdas/adapters/google/google-series.js';

const NY = 'America/New_York';

describe('google-series', () => {
  describe('withRuleEnd', () => {
    it('replaces COUNT with UNTIL and keeps the other parts and lines in order', () => {
      expect(
        withRuleEnd(
          ['RRULE:FREQ=WEEKLY;COUNT=5;BYDAY=MO,WE', 'EXDATE;TZID=America/New_York:20260304T090000'],
          {
            until: '20260315T135959Z',
          },
        ),
      ).toEqual([
        'RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20260315T135959Z',
        'EXDATE;TZID=America/New_York:20260304T090000',
      ]);
    });

    it('replaces an UNTIL with a COUNT', () => {
      expect(withRuleEnd(['RRULE:FREQ=DAILY;UNTIL=20260401'], { count: 3 })).toEqual([
        'RRULE:FREQ=DAILY;COUNT=3',
      ]);
    });
  });

  describe('ruleCount', () => {
    it('reads COUNT, or undefined when the rule has none', () => {
      expect(ruleCount(['RRULE:FREQ=WEEKLY;COUNT=12'])).toBe(12);
      expect(ruleCount(['RRULE:FREQ=WEEKLY;UNTIL=20260401T000000Z'])).toBeUndefined();
      expect(ruleCount([])).toBeUndefined();
    });
  });

  describe('untilBefore', () => {
    it('is one second before the instance, in basic UTC', () => {
      expect(untilBefore({ dateTime: '2026-03-16T09:00:00-04:00', timeZone: NY })).toBe('20260316T125959Z');
    });

    it('is the previous day for an all-day series, across a month end', () => {
      expect(untilBefore({ date: '2026-03-01' })).toBe('20260228');
    });
  });

  describe('endAfter', () => {
    it('keeps a timed duration and the start’s zone', () => {
      expect(
        endAfter(
          { dateTime: '2026-03-16T09:00:00-04:00', timeZone: NY },
          { dateTime: '2026-03-02T09:00:00-05:00' },
          { dateTime: '2026-03-02T10:30:00-05:00' },
        ),
      ).toEqual({ dateTime: '2026-03-16T10:30:00-04:00', timeZone: NY });
    });

    it('keeps an all-day length in days', () => {
      expect(endAfter({ date: '2026-03-30' }, { date: '2026-03-02' }, { date: '2026-03-04' })).toEqual({
        date: '2026-04-01',
      });
    });
  });

  describe('shiftByEdit', () => {
    it('moves the master by the wall-clock change even when the instance is across DST from it', () => {
      // Instance on 2026-03-16 (EDT) moved from 09:00 to 09:30; the master on 2026-03-02 is in EST.
      expect(
        shiftByEdit(
          { dateTime: '2026-03-02T09:00:00-05:00', timeZone: NY },
          { date_time: '2026-03-16T09:00:00-04:00', time_zone: NY },
          { date_time: '2026-03-16T09:30:00-04:00', time_zone: NY },
        ),
      ).toEqual({ dateTime: '2026-03-02T09:30:00-05:00', timeZone: NY, date: null });
    });

    it('moves an all-day master by whole days', () => {
      expect(shiftByEdit({ date: '2026-03-02' }, { date: '2026-03-09' }, { date: '2026-03-11' })).toEqual({
        date: '2026-03-04',
        dateTime: null,
        timeZone: null,
      });
    });

    it('refuses to switch a whole series between all-day and timed', () => {
      expect(() =>
        shiftByEdit(
          { dateTime: '2026-03-02T09:00:00-05:00', timeZone: NY },
          { date_time: '2026-03-16T09:00:00-04:00' },
          { date: '2026-03-16' },
        ),
      ).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    });
  });
});
