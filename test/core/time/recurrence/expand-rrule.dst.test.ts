import { describe, expect, it } from 'vitest';
import { expandRrule } from '../../../../lambdas/core/time/recurrence/expand-rrule.js';

/** Starts and local starts of an expansion, for compact assertions. */
function expand(rrule: string, dtstart: string, timezone: string) {
  const { instances } = expandRrule({ rrule, dtstart, timezone });
  return instances.map((i) => `${i.start} ${i.localStart}`);
}

describe('expandRrule', () => {
  describe('DST edges (expected instants checked against Python zoneinfo, fold=0)', () => {
    it('moves a New York time in the spring-forward gap to the offset before the gap (02:30 → 03:30 EDT)', () => {
      expect(expand('FREQ=DAILY;COUNT=3', '2026-03-07T02:30:00', 'America/New_York')).toEqual([
        '2026-03-07T07:30:00+00:00 2026-03-07T02:30:00-05:00',
        '2026-03-08T07:30:00+00:00 2026-03-08T03:30:00-04:00',
        '2026-03-09T06:30:00+00:00 2026-03-09T02:30:00-04:00',
      ]);
    });

    it('takes the first (EDT) 01:30 on the New York fall-back day and never the repeated hour', () => {
      expect(expand('FREQ=HOURLY;COUNT=4', '2026-11-01T00:30:00', 'America/New_York')).toEqual([
        '2026-11-01T04:30:00+00:00 2026-11-01T00:30:00-04:00',
        '2026-11-01T05:30:00+00:00 2026-11-01T01:30:00-04:00',
        '2026-11-01T07:30:00+00:00 2026-11-01T02:30:00-05:00',
        '2026-11-01T08:30:00+00:00 2026-11-01T03:30:00-05:00',
      ]);
    });

    it('merges an hourly instance that the gap moves onto the next hour', () => {
      expect(expand('FREQ=HOURLY;COUNT=4', '2026-03-08T01:00:00', 'America/New_York')).toEqual([
        '2026-03-08T06:00:00+00:00 2026-03-08T01:00:00-05:00',
        '2026-03-08T07:00:00+00:00 2026-03-08T03:00:00-04:00',
        '2026-03-08T08:00:00+00:00 2026-03-08T04:00:00-04:00',
      ]);
    });

    it('handles Europe/London: 01:30 in the March gap is 02:30 BST, 01:30 in October is the BST one', () => {
      expect(
        expand('FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU;COUNT=2', '2026-01-01T01:30:00', 'Europe/London'),
      ).toEqual([
        '2026-03-29T01:30:00+00:00 2026-03-29T02:30:00+01:00',
        '2026-10-25T00:30:00+00:00 2026-10-25T01:30:00+01:00',
      ]);
    });

    it('handles Australia/Sydney, whose DST runs October to April', () => {
      expect(
        expand('FREQ=YEARLY;BYMONTH=4,10;BYDAY=1SU;COUNT=2', '2026-01-01T02:30:00', 'Australia/Sydney'),
      ).toEqual([
        '2026-04-04T15:30:00+00:00 2026-04-05T02:30:00+11:00',
        '2026-10-03T16:30:00+00:00 2026-10-04T03:30:00+11:00',
      ]);
    });

    it('handles Australia/Lord_Howe, whose DST shift is 30 minutes', () => {
      expect(
        expand('FREQ=DAILY;BYHOUR=1,2;BYMINUTE=45;COUNT=4', '2026-04-05T00:00:00', 'Australia/Lord_Howe'),
      ).toEqual([
        '2026-04-04T14:45:00+00:00 2026-04-05T01:45:00+11:00',
        '2026-04-04T16:15:00+00:00 2026-04-05T02:45:00+10:30',
        '2026-04-05T15:15:00+00:00 2026-04-06T01:45:00+10:30',
        '2026-04-05T16:15:00+00:00 2026-04-06T02:45:00+10:30',
      ]);
      expect(
        expand('FREQ=DAILY;BYHOUR=2;BYMINUTE=15;COUNT=2', '2026-10-04T00:00:00', 'Australia/Lord_Howe'),
      ).toEqual([
        '2026-10-03T15:45:00+00:00 2026-10-04T02:45:00+11:00',
        '2026-10-04T15:15:00+00:00 2026-10-05T02:15:00+11:00',
      ]);
    });

    it('handles Asia/Kathmandu (+05:45, no DST)', () => {
      expect(expand('FREQ=WEEKLY;COUNT=2', '2026-06-01T09:00:00', 'Asia/Kathmandu')).toEqual([
        '2026-06-01T03:15:00+00:00 2026-06-01T09:00:00+05:45',
        '2026-06-08T03:15:00+00:00 2026-06-08T09:00:00+05:45',
      ]);
    });

    it("gives a daily rule across Pacific/Apia's skipped 2011-12-30 no instance on that date", () => {
      expect(expand('FREQ=DAILY;COUNT=5', '2011-12-28T10:00:00', 'Pacific/Apia')).toEqual([
        '2011-12-28T20:00:00+00:00 2011-12-28T10:00:00-10:00',
        '2011-12-29T20:00:00+00:00 2011-12-29T10:00:00-10:00',
        // The 2011-12-30 10:00 wall time does not exist: read at -10:00 it is the same instant as
        // 2011-12-31 10:00 +14:00, and the two merge (RFC 5545 counts a repeated instance once).
        '2011-12-30T20:00:00+00:00 2011-12-31T10:00:00+14:00',
        '2011-12-31T20:00:00+00:00 2012-01-01T10:00:00+14:00',
      ]);
    });

    it('handles Pacific/Chatham (+12:45 / +13:45) at both changes', () => {
      expect(expand('FREQ=DAILY;BYHOUR=3;COUNT=2', '2026-04-05T00:00:00', 'Pacific/Chatham')).toEqual([
        '2026-04-04T13:15:00+00:00 2026-04-05T03:00:00+13:45',
        '2026-04-05T14:15:00+00:00 2026-04-06T03:00:00+12:45',
      ]);
      expect(expand('FREQ=DAILY;BYHOUR=3;COUNT=2', '2026-09-27T00:00:00', 'Pacific/Chatham')).toEqual([
        '2026-09-26T14:15:00+00:00 2026-09-27T04:00:00+13:45',
        '2026-09-27T13:15:00+00:00 2026-09-28T03:00:00+13:45',
      ]);
    });

    it('keeps 60 elapsed minutes per instance across a change (end = start + duration)', () => {
      const { instances } = expandRrule({
        rrule: 'FREQ=DAILY;COUNT=1',
        dtstart: '2026-11-01T01:30:00',
        timezone: 'America/New_York',
        durationMinutes: 60,
      });
      expect(instances).toEqual([
        {
          start: '2026-11-01T05:30:00+00:00',
          end: '2026-11-01T06:30:00+00:00',
          localStart: '2026-11-01T01:30:00-04:00',
        },
      ]);
    });
  });
});
