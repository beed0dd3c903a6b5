import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleQuery } from '../../../lambdas/core/rules/assemble-query.js';
import { parseQuery } from '../../../lambdas/core/rules/parse-query.js';
import { conditionsOf } from '../../../lambdas/core/rules/query-ast.js';

const RUNS = Number(process.env.MERIDIAN_FUZZ_RUNS ?? 300);

describe('assembleQuery', () => {
  it('keeps any text value exactly, whatever quotes, backslashes, parentheses or keywords it holds', () => {
    const condition = fc.record({
      property: fc.constantFrom('title', 'description', 'attendees', 'calendar', 'text'),
      value: fc.string({ minLength: 1, maxLength: 20 }).filter((v) => v.trim() !== ''),
      negated: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(condition, { minLength: 1, maxLength: 5 }),
        fc.constantFrom('AND', 'OR'),
        (conditions, logic) => {
          const query = assembleQuery(conditions, logic as 'AND' | 'OR');

          const parsed = conditionsOf(parseQuery(query)).map((c) => [c.property, c.value]);
          expect(parsed).toEqual(conditions.map((c) => [c.property, c.value]));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('joins with OR tighter than the implicit AND, as the parser reads it', () => {
    expect(
      assembleQuery(
        [
          { property: 'day-of-week', value: 'sat' },
          { property: 'day-of-week', value: 'sun', negated: true },
        ],
        'OR',
      ),
    ).toBe('day-of-week:sat OR -day-of-week:sun');
  });
});
