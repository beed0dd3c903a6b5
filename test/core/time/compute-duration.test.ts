import { describe, expect, it } from 'vitest';
import { computeDuration } from '../../../lambdas/core/time/compute-duration.js';

describe('computeDuration', () => {
  it('reproduces the reference example', () => {
    expect(computeDuration({ start: '2026-03-16T13:00:00Z', end: '2026-03-16T21:30:00Z' })).toEqual({
      total_seconds: 30_600,
      days: 0,
      hours: 8,
      minutes: 30,
      seconds: 0,
      human_readable: '8 hours, 30 minutes',
      direction: 'forward',
    });
  });

  it('counts exact hours across a DST change (23 h for the New York spring-forward day)', () => {
    const result = computeDuration({ start: '2026-03-08T00:00:00-05:00', end: '2026-03-09T00:00:00-04:00' });

    expect(result.total_seconds).toBe(23 * 3600);
    expect(result.human_readable).toBe('23 hours');
  });

  it('compares instants written with different offsets', () => {
    const result = computeDuration({ start: '2026-01-01T00:00:00+05:45', end: '2026-01-01T00:00:00+13:45' });

    expect(result.total_seconds).toBe(-8 * 3600);
    expect(result.direction).toBe('backward');
    expect(result.human_readable).toBe('8 hours (end is before start)');
  });

  it('uses singular units and days', () => {
    expect(
      computeDuration({ start: '2026-01-01T00:00:00Z', end: '2026-01-02T01:01:01Z' }).human_readable,
    ).toBe('1 day, 1 hour, 1 minute, 1 second');
  });

  it('says 0 seconds for equal instants', () => {
    expect(
      computeDuration({ start: '2026-01-01T00:00:00Z', end: '2026-01-01T00:00:00Z' }).human_readable,
    ).toBe('0 seconds');
  });

  it('names the bad field', () => {
    expect(() => computeDuration({ start: '2026-01-01T00:00:00Z', end: 'noon' })).toThrowError(/"end"/);
  });
});
