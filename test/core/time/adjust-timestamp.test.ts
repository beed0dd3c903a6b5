import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../lambdas/core/errors.js';
import { adjustTimestamp } from '../../../lambdas/core/time/adjust-timestamp.js';
import { frozenTimeDeps } from '../../support/time-deps.js';

const deps = frozenTimeDeps('2026-01-01T00:00:00Z');

function adjust(datetime: string, adjustment: string, timezone?: string) {
  return adjustTimestamp(deps, { datetime, adjustment, timezone });
}

describe('adjustTimestamp', () => {
  it('reproduces the reference example: +1d across spring-forward keeps 01:00 wall time', () => {
    expect(adjust('2026-03-08T01:00:00-05:00', '+1d', 'America/New_York')).toEqual({
      original: '2026-03-08T01:00:00-05:00',
      adjusted_utc: '2026-03-09T05:00:00+00:00',
      adjusted_local: '2026-03-09T01:00:00-04:00',
      adjustment_applied: '+1d',
      timezone: 'America/New_York',
    });
  });

  it('adds exact elapsed time for hour units across the same transition', () => {
    expect(adjust('2026-03-08T01:00:00-05:00', '+24h', 'America/New_York').adjusted_local).toBe(
      '2026-03-09T02:00:00-04:00',
    );
  });

  // Expected values cross-checked with Python zoneinfo (fold=0: gaps take the offset before the gap).
  it.each([
    [
      'America/New_York fall-back: +1d is 25 h',
      '2026-11-01T00:30:00-04:00',
      '+1d',
      'America/New_York',
      '2026-11-02T00:30:00-05:00',
    ],
    [
      'America/New_York ambiguous 01:30 takes the first occurrence',
      '2026-10-31T01:30:00-04:00',
      '+1d',
      'America/New_York',
      '2026-11-01T01:30:00-04:00',
    ],
    [
      'Europe/London gap 01:30 moves to 02:30 BST',
      '2026-03-28T01:30:00+00:00',
      '+1d',
      'Europe/London',
      '2026-03-29T02:30:00+01:00',
    ],
    [
      'Australia/Sydney gap 02:30 moves to 03:30',
      '2026-10-03T02:30:00+10:00',
      '+1d',
      'Australia/Sydney',
      '2026-10-04T03:30:00+11:00',
    ],
    [
      'Australia/Lord_Howe 30-minute gap',
      '2026-10-03T02:15:00+10:30',
      '+1d',
      'Australia/Lord_Howe',
      '2026-10-04T02:45:00+11:00',
    ],
    [
      'Australia/Lord_Howe 30-minute fall-back, exact hours',
      '2026-04-05T01:00:00+11:00',
      '+2h',
      'Australia/Lord_Howe',
      '2026-04-05T02:30:00+10:30',
    ],
    [
      'Asia/Kathmandu compound',
      '2026-01-01T10:00:00+05:45',
      '+1d2h30m',
      'Asia/Kathmandu',
      '2026-01-02T12:30:00+05:45',
    ],
    [
      'Pacific/Apia skipped 2011-12-30',
      '2011-12-29T12:00:00-10:00',
      '+1d',
      'Pacific/Apia',
      '2011-12-31T12:00:00+14:00',
    ],
    [
      'Pacific/Chatham gap 02:45 moves to 03:45',
      '2026-09-26T02:45:00+12:45',
      '+1d',
      'Pacific/Chatham',
      '2026-09-27T03:45:00+13:45',
    ],
    [
      'weeks then days backwards',
      '2026-03-20T09:00:00-04:00',
      '-2w3d',
      'America/New_York',
      '2026-03-03T09:00:00-05:00',
    ],
  ])('%s', (_title, datetime, adjustment, zone, expected) => {
    expect(adjust(datetime, adjustment, zone).adjusted_local).toBe(expected);
  });

  it('uses the configured zone when none is given', () => {
    const configured = frozenTimeDeps('2026-01-01T00:00:00Z', 'America/New_York');
    const result = adjustTimestamp(configured, { datetime: '2026-03-08T06:00:00Z', adjustment: '+1d' });

    expect(result.adjusted_local).toBe('2026-03-09T01:00:00-04:00');
    expect(result.timezone).toBe('America/New_York');
  });

  it('uses the input offset, with no DST, when no zone is given or configured', () => {
    const result = adjust('2026-03-08T01:00:00-05:00', '+1d');

    expect(result.adjusted_local).toBe('2026-03-09T01:00:00-05:00');
    expect(result.timezone).toBe('UTC-5');
  });

  it.each(['2h', '+', '+2x', '+1h1d', '+1h1h', '+2months', '++2h', ''])(
    'rejects %j with INVALID_DURATION',
    (bad) => {
      expect(() => adjust('2026-01-01T00:00:00Z', bad)).toThrowError(
        expect.objectContaining({ code: 'INVALID_DURATION' }) as unknown as Error,
      );
    },
  );

  it('rejects a timestamp without an offset with INVALID_DATETIME and says to add one', () => {
    expect(() => adjust('2026-01-01T09:00:00', '+1h')).toThrowError(/no offset/);
  });

  it('refuses a result outside years 1–9999', () => {
    expect(() => adjust('9999-12-31T00:00:00Z', '+2d')).toThrowError(DomainError);
  });

  it('returns the original instant after +X then -X with exact units (property)', () => {
    const zones = [
      'America/New_York',
      'Europe/London',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'Pacific/Chatham',
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2040, 0, 1) }),
        fc.nat({ max: 500 }),
        fc.nat({ max: 5000 }),
        fc.nat({ max: 100_000 }),
        fc.constantFrom(...zones),
        (ms, hours, minutes, seconds, zone) => {
          const start = new Date(ms).toISOString();
          const units = `${hours}h${minutes}m${seconds}s`;
          const forward = adjust(start, `+${units}`, zone);
          const back = adjust(forward.adjusted_utc, `-${units}`, zone);
          expect(Date.parse(back.adjusted_utc)).toBe(ms);
          expect(Date.parse(forward.adjusted_utc) - ms).toBe(((hours * 60 + minutes) * 60 + seconds) * 1000);
        },
      ),
      { numRuns: 300 },
    );
  });
});
