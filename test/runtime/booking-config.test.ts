import { describe, expect, it } from 'vitest';
import { lockTtlSecondsFrom } from '../../lambdas/runtime/booking-config.js';

describe('lockTtlSecondsFrom', () => {
  it('is 30 when LOCK_TTL_SECS is unset or empty', () => {
    expect(lockTtlSecondsFrom({})).toBe(30);
    expect(lockTtlSecondsFrom({ LOCK_TTL_SECS: ' ' })).toBe(30);
  });

  it('reads whole seconds from 5 to 300', () => {
    expect(lockTtlSecondsFrom({ LOCK_TTL_SECS: '5' })).toBe(5);
    expect(lockTtlSecondsFrom({ LOCK_TTL_SECS: ' 300 ' })).toBe(300);
  });

  it.each(['4', '301', '12.5', 'thirty', '-30'])('refuses %s, naming the variable and the range', (value) => {
    expect(() => lockTtlSecondsFrom({ LOCK_TTL_SECS: value })).toThrow(
      `LOCK_TTL_SECS must be a whole number of seconds from 5 to 300 (got "${value}").`,
    );
  });
});
