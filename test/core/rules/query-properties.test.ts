import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../lambdas/core/errors.js';
import { parseQuery } from '../../../lambdas/core/rules/parse-query.js';
import { printQuery } from '../../../lambdas/core/rules/print-query.js';
import type { QueryNode } from '../../../lambdas/core/rules/query-ast.js';
import { RULE_PROPERTIES, WEEKDAYS } from '../../../lambdas/core/rules/rule-properties.js';
import { MAX_QUERY_LENGTH } from '../../../lambdas/core/rules/scan-query.js';

/** CI runs a few thousand cases; `MERIDIAN_FUZZ_RUNS=100000 npx vitest run test/core/rules` for a long run. */
const RUNS = Number(process.env.MERIDIAN_FUZZ_RUNS ?? 2000);
// Long runs take about 0.3 ms a case; the default 20 s test timeout is for CI's count.
const TIMEOUT = Math.max(20_000, RUNS * 2);
const QUERY_ERRORS = new Set(['INVALID_QUERY', 'INVALID_PROPERTY', 'INVALID_VALUE']);

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,6}[a-z0-9])?$/);
const domain = fc.tuple(label, label).map(([a, b]) => `${a}.${b}`);
const textValue = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
  .filter((value) => value.trim() !== '');

const condition: fc.Arbitrary<QueryNode> = fc.oneof(
  fc.record({
    kind: fc.constant('condition' as const),
    property: fc.constantFrom('title', 'description', 'attendees', 'calendar', 'text'),
    value: textValue,
  }),
  domain.map((value) => ({ kind: 'condition' as const, property: 'domain' as const, value })),
  fc.tuple(fc.stringMatching(/^[a-z0-9._+-]{1,8}$/), domain).map(([local, host]) => ({
    kind: 'condition' as const,
    property: 'email' as const,
    value: `${local}@${host}`,
  })),
  ...RULE_PROPERTIES.filter((p) => p.values).map((p) =>
    fc
      .constantFrom(...p.values!)
      .map((value) => ({ kind: 'condition', property: p.name, value }) as QueryNode),
  ),
  fc
    .constantFrom(...WEEKDAYS)
    .map((value) => ({ kind: 'condition' as const, property: 'day-of-week' as const, value })),
  fc
    .tuple(fc.constantFrom('>', '>=', '<', '<=', '=' as const), fc.integer({ min: 0, max: 23 * 60 + 59 }))
    .map(([operator, minutes]) => ({
      kind: 'condition' as const,
      property: 'time-of-day' as const,
      operator,
      minutes,
      value: `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`,
    })),
);

/** Flattens like the parser, so generated trees are in the parser's normal form. */
function combine(kind: 'and' | 'or', items: QueryNode[]): QueryNode {
  return { kind, items: items.flatMap((item) => (item.kind === kind ? item.items : [item])) };
}

const tree = fc
  .letrec<{ node: QueryNode }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      condition,
      tie('node').map((item) => ({ kind: 'not' as const, item })),
      fc.array(tie('node'), { minLength: 2, maxLength: 4 }).map((items) => combine('and', items)),
      fc.array(tie('node'), { minLength: 2, maxLength: 4 }).map((items) => combine('or', items)),
    ),
  }))
  .node.filter((node) => printQuery(node).length <= MAX_QUERY_LENGTH);

const queryishText = fc
  .array(
    fc.constantFrom(
      'title:',
      'domain:',
      'time-of-day:',
      'response:',
      'subject:',
      'a',
      'x.com',
      '17:00',
      '>',
      '>=',
      ' ',
      ' ',
      '(',
      ')',
      '-',
      'OR',
      'AND',
      'NOT',
      '"',
      '\\',
      ':',
      '@',
      'yes',
      'fri',
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

function outcome(query: string): { ok: true; node: QueryNode } | { ok: false; code: string } {
  try {
    return { ok: true, node: parseQuery(query) };
  } catch (error) {
    if (error instanceof DomainError) return { ok: false, code: error.code };
    throw error;
  }
}

describe('rule query properties', () => {
  it(
    'prints every tree so that parsing gives the same tree back',
    () => {
      fc.assert(
        fc.property(tree, (node) => {
          expect(parseQuery(printQuery(node))).toEqual(node);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    'answers any text with a tree or a typed error, and a parsed query round-trips through print',
    () => {
      fc.assert(
        fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 120 }), queryishText), (query) => {
          const result = outcome(query);
          if (result.ok) expect(parseQuery(printQuery(result.node))).toEqual(result.node);
          else expect(QUERY_ERRORS).toContain(result.code);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});
