/**
 * resolve_datetime over the whole test corpus, against plain `chrono.parseDate` on the same
 * expressions and reference instants (chrono alone: host-local semantics, no zone rules, no
 * full-match check, no output formatting).
 *
 * Target: at most 5× slower. The baseline only parses; a resolution also does about four IANA
 * offset lookups, luxon calendar arithmetic and three formatted outputs. Measured at 4–6× on a
 * loaded 2-core machine while offsets were read through luxon's IANAZone (formatToParts, a
 * quarter of the time); ~4.1× since they are read through IntlOffsetZone. Regressions such as
 * re-validating the zone with a new Intl.DateTimeFormat per call (11×) break the target.
 */
import { parseDate } from 'chrono-node';
import { fixedClock } from '../lambdas/core/ports/index.js';
import { resolveDatetime } from '../lambdas/core/time/resolve/resolve-datetime.js';
import { RESOLVE_CORPUS } from '../test/core/time/resolve/corpus.js';
import { withDefaults } from '../test/core/time/resolve/helpers.js';
import { compare, measure, reportFigure, reportRatio } from './harness.js';

export async function run(): Promise<void> {
  const cases = RESOLVE_CORPUS.map(withDefaults).map((c) => ({
    expression: c.expression,
    input: { expression: c.expression, timezone: c.zone },
    deps: { clock: fixedClock(c.reference), defaultTimezone: undefined },
    referenceDate: new Date(c.reference),
  }));

  const perExpression: number[] = [];
  for (const c of cases) {
    const sample = await measure(c.expression, () => resolveDatetime(c.deps, c.input), {
      runs: 15,
      warmup: 3,
      inner: 20,
    });
    perExpression.push(sample.medianMs * 1000);
  }
  perExpression.sort((a, b) => a - b);
  const median = perExpression[Math.floor(perExpression.length / 2)]!;
  const p90 = perExpression[Math.floor(perExpression.length * 0.9)]!;
  reportFigure(
    `resolve_datetime, ${cases.length} corpus expressions`,
    `median ${median.toFixed(1)} µs per expression (p90 ${p90.toFixed(1)} µs, slowest ${perExpression.at(-1)!.toFixed(1)} µs)`,
  );

  const result = await compare(
    {
      name: 'resolveDatetime',
      fn: () => {
        for (const c of cases) resolveDatetime(c.deps, c.input);
      },
    },
    {
      name: 'chrono.parseDate',
      fn: () => {
        for (const c of cases) parseDate(c.expression, c.referenceDate);
      },
    },
    { rounds: 10, runs: 60, warmup: 3 },
  );
  reportRatio(`whole corpus (${cases.length} expressions) vs plain chrono-node`, result, {
    kind: 'slowdown',
    value: 5,
  });
}
