import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../../lambdas/core/errors.js';
import { resolveDatetime } from '../../../../lambdas/core/time/resolve/resolve-datetime.js';
import { frozenAt } from './helpers.js';

function failure(input: Parameters<typeof resolveDatetime>[1]): DomainError {
  try {
    resolveDatetime(frozenAt(undefined, 'America/New_York'), input);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error(`"${input.expression}" resolved but should have failed`);
}

describe('resolveDatetime failures', () => {
  it.each([
    'blah',
    'tomorrow blah',
    'next',
    'next blursday',
    'in 2 fortnights',
    '3/15/26',
    'march',
    'next tuesday next week',
    '+',
    '+2x',
    '2pm San Francisco',
    'in london',
    'q5 2027',
    'h3',
    'in half a business day',
  ])('refuses "%s" with UNRECOGNIZED_EXPRESSION', (expression) => {
    expect(failure({ expression }).code).toBe('UNRECOGNIZED_EXPRESSION');
  });

  it('gives one example of each supported form in a short message', () => {
    const { message, details } = failure({ expression: 'whenever' });
    expect(message).toContain('"next Tuesday at 2pm"');
    expect(message).toContain('"first Monday of March"');
    expect(message).not.toContain('"+1d2h"');
    expect(message.length).toBeLessThan(400);
    expect(details).toEqual({ expression: 'whenever', understood: [] });
  });

  it.each([
    ['03/04 at 10', '"03/04" has no year: add it ("03/04/YYYY"'],
    ['3.4. at 10', '"3.4" has no year: add it ("3.4.YYYY"'],
    ['3/15/26', 'Write the year of "3/15/26" with four digits'],
  ])('tells "%s" to add the year', (expression, advice) => {
    expect(failure({ expression }).message).toContain(advice);
  });

  it('says which part it understood when text is left over', () => {
    const { message, details } = failure({ expression: 'tomorrow at 2pm please' });
    expect(details.understood).toEqual(['"tomorrow at 2pm"']);
    expect(message).toContain('not the whole text');
  });

  it('refuses a range, since the tool returns one instant', () => {
    const { code, message } = failure({ expression: '2-3pm' });
    expect(code).toBe('UNRECOGNIZED_EXPRESSION');
    expect(message).toContain('range');
  });

  it('refuses fractional calendar units', () => {
    expect(failure({ expression: 'in 1.5 days' }).message).toContain('whole number');
  });

  it('refuses an ordinal weekday the month does not have with OUT_OF_RANGE', () => {
    const { code, message } = failure({ expression: 'fifth Monday of February 2026' });
    expect(code).toBe('OUT_OF_RANGE');
    expect(message).toBe('February 2026 has no fifth Monday. Use "last Monday of …" for the final one.');
  });

  it('refuses a day the month does not have', () => {
    expect(failure({ expression: 'February 30' }).code).toBe('OUT_OF_RANGE');
    expect(failure({ expression: '2026-02-30' }).code).toBe('INVALID_DATETIME');
  });

  it.each(['in 99999999 days', '+99999999999w', 'in 8000 years', '0000-01-01'])(
    'refuses "%s", which leaves the years RFC 3339 can express, with OUT_OF_RANGE',
    (expression) => {
      expect(failure({ expression }).code).toBe('OUT_OF_RANGE');
    },
  );

  it('refuses an unknown zone with INVALID_TIMEZONE and suggestions', () => {
    const error = failure({ expression: 'today', timezone: 'America/New_Yrok' });
    expect(error.code).toBe('INVALID_TIMEZONE');
    expect(error.details.suggestions).toContain('America/New_York');
  });

  it('refuses a reference_time without an offset with INVALID_DATETIME', () => {
    const error = failure({ expression: 'today', reference_time: '2026-03-15T10:00' });
    expect(error.code).toBe('INVALID_DATETIME');
    expect(error.details.field).toBe('reference_time');
  });

  it('refuses a blank expression', () => {
    expect(failure({ expression: '   ' }).code).toBe('UNRECOGNIZED_EXPRESSION');
  });
});
