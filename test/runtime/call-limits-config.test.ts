import { describe, expect, it } from 'vitest';
import { callLimitsFrom, memoryItemsCapFrom } from '../../lambdas/runtime/call-limits-config.js';

describe('callLimitsFrom', () => {
  it('defaults to 30 s and 50,000 items', () => {
    expect(callLimitsFrom({})).toEqual({ deadlineMs: 30_000, workItems: 50_000 });
  });

  it('reads MERIDIAN_CALL_DEADLINE_SECONDS and MERIDIAN_CALL_WORK_ITEMS', () => {
    expect(
      callLimitsFrom({ MERIDIAN_CALL_DEADLINE_SECONDS: ' 10 ', MERIDIAN_CALL_WORK_ITEMS: '200000' }),
    ).toEqual({ deadlineMs: 10_000, workItems: 200_000 });
  });

  it.each([
    ['MERIDIAN_CALL_DEADLINE_SECONDS', '0', 'from 1 to 900'],
    ['MERIDIAN_CALL_DEADLINE_SECONDS', '1.5', 'from 1 to 900'],
    ['MERIDIAN_CALL_WORK_ITEMS', '999', 'from 1000 to 10000000'],
    ['MERIDIAN_CALL_WORK_ITEMS', 'lots', 'from 1000 to 10000000'],
  ])('refuses %s=%s, saying what fits', (name, value, fits) => {
    expect(() => callLimitsFrom({ [name]: value })).toThrow(
      `${name} must be a whole number ${fits}; got "${value}".`,
    );
  });
});

describe('memoryItemsCapFrom', () => {
  it('defaults to 20,000 records and reads MERIDIAN_MEMORY_MAX_ITEMS', () => {
    expect(memoryItemsCapFrom({})).toBe(20_000);
    expect(memoryItemsCapFrom({ MERIDIAN_MEMORY_MAX_ITEMS: ' 5000 ' })).toBe(5_000);
  });

  it('refuses a cap out of range, saying what fits', () => {
    expect(() => memoryItemsCapFrom({ MERIDIAN_MEMORY_MAX_ITEMS: '99' })).toThrow(
      'MERIDIAN_MEMORY_MAX_ITEMS must be a whole number from 100 to 10000000; got "99".',
    );
  });
});
