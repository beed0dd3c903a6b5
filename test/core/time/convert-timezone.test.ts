import fc from 'fast-check';
import { DateTime, FixedOffsetZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { convertTimezone } from '../../../lambdas/core/time/convert-timezone.js';
import { formatInstant } from '../../../lambdas/core/time/instants.js';

describe('convertTimezone', () => {
  it('reproduces the reference example', () => {
    expect(
      convertTimezone({ datetime: '2026-03-15T18:00:00Z', target_timezone: 'America/Los_Angeles' }),
    ).toEqual({
      utc: '2026-03-15T18:00:00+00:00',
      local: '2026-03-15T11:00:00-07:00',
      timezone: 'America/Los_Angeles',
      utc_offset: '-07:00',
      dst_active: true,
    });
  });

  it.each([
    ['2026-01-15T12:00:00Z', 'Asia/Kathmandu', '2026-01-15T17:45:00+05:45', false],
    ['2026-01-15T12:00:00Z', 'Australia/Lord_Howe', '2026-01-15T23:00:00+11:00', true],
    ['2026-07-15T12:00:00Z', 'Australia/Lord_Howe', '2026-07-15T22:30:00+10:30', false],
    ['2026-01-15T12:00:00Z', 'Pacific/Chatham', '2026-01-16T01:45:00+13:45', true],
    ['2011-12-30T09:59:00Z', 'Pacific/Apia', '2011-12-29T23:59:00-10:00', true],
    ['2011-12-30T10:00:00Z', 'Pacific/Apia', '2011-12-31T00:00:00+14:00', true],
    ['2026-03-29T00:59:59Z', 'Europe/London', '2026-03-29T00:59:59+00:00', false],
    ['2026-03-29T01:00:00Z', 'Europe/London', '2026-03-29T02:00:00+01:00', true],
  ])('shows %s in %s as %s', (datetime, zone, local, dst) => {
    const result = convertTimezone({ datetime, target_timezone: zone });

    expect(result.local).toBe(local);
    expect(result.dst_active).toBe(dst);
  });

  it('writes an offset with seconds (Monrovia until 1972) as whole minutes, keeping the instant', () => {
    // Python zoneinfo: 1969-12-31T23:15:30-00:44:30. RFC 3339 offsets have no seconds.
    const result = convertTimezone({ datetime: '1970-01-01T00:00:00Z', target_timezone: 'Africa/Monrovia' });

    expect(result.local).toBe('1969-12-31T23:16:00-00:44');
    expect(Date.parse(result.local)).toBe(0);
    expect(result.utc_offset).toBe('-00:44:30');
  });

  it('keeps fractional seconds', () => {
    expect(convertTimezone({ datetime: '2026-01-01T00:00:00.250Z', target_timezone: 'UTC' }).local).toBe(
      '2026-01-01T00:00:00.250+00:00',
    );
  });

  it.each(['2026-03-15', '2026-03-15T18:00:00', 'yesterday', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z'])(
    'rejects %j with INVALID_DATETIME',
    (datetime) => {
      expect(() => convertTimezone({ datetime, target_timezone: 'UTC' })).toThrowError(
        expect.objectContaining({ code: 'INVALID_DATETIME' }) as unknown as Error,
      );
    },
  );

  it('never changes the instant (property)', () => {
    const zones = Intl.supportedValuesOf('timeZone');
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.constantFrom(...zones),
        fc.constantFrom(0, 345, -210, 840),
        (ms, zone, inputOffsetMinutes) => {
          const input = formatInstant(
            DateTime.fromMillis(ms, { zone: FixedOffsetZone.instance(inputOffsetMinutes) }),
          );
          const result = convertTimezone({ datetime: input, target_timezone: zone });
          expect(Date.parse(result.local)).toBe(ms);
          expect(Date.parse(result.utc)).toBe(ms);
          expect(result.timezone).toBe(zone);
        },
      ),
      { numRuns: 500 },
    );
  });
});
