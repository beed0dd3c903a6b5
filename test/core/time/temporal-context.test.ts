import { describe, expect, it } from 'vitest';
import { isDomainError } from '../../../lambdas/core/errors.js';
import { getTemporalContext } from '../../../lambdas/core/time/temporal-context.js';
import { frozenTimeDeps } from '../../support/time-deps.js';

describe('getTemporalContext', () => {
  it('reproduces the reference example for New York in February', () => {
    const deps = frozenTimeDeps('2026-02-20T15:30:00Z', 'America/New_York');

    const context = getTemporalContext(deps, {});

    expect(context).toEqual({
      utc: '2026-02-20T15:30:00+00:00',
      local: '2026-02-20T10:30:00-05:00',
      timezone: 'America/New_York',
      timezone_configured: true,
      utc_offset: '-05:00',
      dst_active: false,
      day_of_week: 'Friday',
      iso_week: 8,
      is_weekday: true,
      day_of_year: 51,
      next_dst_transition: '2026-03-08T07:00:00+00:00',
      next_dst_direction: 'spring-forward',
      days_until_dst_transition: 16,
    });
  });

  it('falls back to UTC and says timezone_configured is false when no zone is configured', () => {
    const context = getTemporalContext(frozenTimeDeps('2026-07-01T00:00:00Z'), {});

    expect(context.timezone).toBe('UTC');
    expect(context.timezone_configured).toBe(false);
    expect(context.next_dst_transition).toBeUndefined();
  });

  it('prefers an explicit zone over the configured one', () => {
    const context = getTemporalContext(frozenTimeDeps('2026-07-01T00:00:00Z', 'Europe/London'), {
      timezone: 'Asia/Tokyo',
    });

    expect(context.local).toBe('2026-07-01T09:00:00+09:00');
  });

  // Expected transitions computed independently with Python's zoneinfo.
  it.each([
    ['Europe/London', '2026-10-01T12:00:00Z', '2026-10-25T01:00:00+00:00', 'fall-back', true, '+01:00'],
    [
      'Australia/Sydney',
      '2026-09-01T00:00:00Z',
      '2026-10-03T16:00:00+00:00',
      'spring-forward',
      false,
      '+10:00',
    ],
    [
      'Australia/Lord_Howe',
      '2026-09-01T00:00:00Z',
      '2026-10-03T15:30:00+00:00',
      'spring-forward',
      false,
      '+10:30',
    ],
    ['Australia/Lord_Howe', '2026-03-01T00:00:00Z', '2026-04-04T15:00:00+00:00', 'fall-back', true, '+11:00'],
    [
      'Pacific/Chatham',
      '2026-09-01T00:00:00Z',
      '2026-09-26T14:00:00+00:00',
      'spring-forward',
      false,
      '+12:45',
    ],
    ['Pacific/Apia', '2011-12-01T00:00:00Z', '2011-12-30T10:00:00+00:00', 'spring-forward', true, '-10:00'],
  ] as const)('finds the next transition in %s from %s', (zone, now, transition, direction, dst, offset) => {
    const context = getTemporalContext(frozenTimeDeps(now), { timezone: zone });

    expect(context.next_dst_transition).toBe(transition);
    expect(context.next_dst_direction).toBe(direction);
    expect(context.dst_active).toBe(dst);
    expect(context.utc_offset).toBe(offset);
  });

  it('reports no transition for Asia/Kathmandu, which has a fixed +05:45 offset', () => {
    const context = getTemporalContext(frozenTimeDeps('2026-09-01T00:00:00Z'), {
      timezone: 'Asia/Kathmandu',
    });

    expect(context.local).toBe('2026-09-01T05:45:00+05:45');
    expect(context.dst_active).toBe(false);
    expect(context).not.toHaveProperty('next_dst_transition');
  });

  it('finds a transition exactly to the minute even when now has seconds', () => {
    const context = getTemporalContext(frozenTimeDeps('2026-11-22T10:48:57.080Z'), {
      timezone: 'Australia/Sydney',
    });

    expect(context.next_dst_transition).toBe('2027-04-03T16:00:00+00:00');
    expect(context.dst_active).toBe(true);
  });

  it('refuses an unknown zone and suggests the closest names', () => {
    try {
      getTemporalContext(frozenTimeDeps('2026-01-01T00:00:00Z'), { timezone: 'America/New_Yrok' });
      expect.unreachable('should have thrown');
    } catch (error) {
      expect(isDomainError(error, 'INVALID_TIMEZONE')).toBe(true);
      expect((error as { details: { suggestions: string[] } }).details.suggestions[0]).toBe(
        'America/New_York',
      );
    }
  });
});
