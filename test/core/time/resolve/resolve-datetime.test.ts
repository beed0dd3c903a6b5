import { describe, expect, it } from 'vitest';
import { resolveDatetime } from '../../../../lambdas/core/time/resolve/resolve-datetime.js';
import {
  ANCHORED,
  BUSINESS_DAYS,
  CALENDAR_DATE,
  COMBINED,
  type CorpusCase,
  EXPLICIT_TIME,
  NAMED_PERIODS,
  NAMED_ZONES,
  OFFSETS,
  ORDINAL,
  PASSTHROUGH,
  PERIOD_BOUNDARIES,
  RESOLVE_CORPUS,
  TIME_OF_DAY,
  WEEKDAY,
  ZONE_EDGES,
} from './corpus.js';
import { frozenAt, utcOf, withDefaults } from './helpers.js';

const GROUPS: Array<[string, readonly CorpusCase[]]> = [
  ['anchored words', ANCHORED],
  ['weekdays', WEEKDAY],
  ['times of day', TIME_OF_DAY],
  ['explicit times', EXPLICIT_TIME],
  ['offsets', OFFSETS],
  ['combined forms', COMBINED],
  ['period boundaries', PERIOD_BOUNDARIES],
  ['ordinal weekdays', ORDINAL],
  ['calendar dates', CALENDAR_DATE],
  ['RFC 3339 / ISO 8601 passthrough', PASSTHROUGH],
  ['DST edges and unusual zones', ZONE_EDGES],
  ['a zone named in the expression', NAMED_ZONES],
  ['business days', BUSINESS_DAYS],
  ['quarters, halves and the week after next', NAMED_PERIODS],
];

describe('resolveDatetime', () => {
  it('covers at least 60 distinct expressions', () => {
    expect(new Set(RESOLVE_CORPUS.map((c) => c.expression.toLowerCase())).size).toBeGreaterThanOrEqual(60);
  });

  describe.each(GROUPS)('%s', (_name, cases) => {
    it.each(cases.map(withDefaults))(
      'resolves "$expression" in $zone from $reference to $expected',
      ({ expression, expected, category, zone, reference }) => {
        // Arrange
        const deps = frozenAt(reference);
        // Act
        const result = resolveDatetime(deps, { expression, timezone: zone });
        // Assert
        expect(result.resolved_local).toBe(expected);
        expect(result.resolved_utc).toBe(utcOf(expected));
        expect(result.matched_category).toBe(category);
      },
    );
  });
});
