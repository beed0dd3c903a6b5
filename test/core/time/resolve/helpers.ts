import { fixedClock, type TimeDeps } from '../../../../lambdas/core/ports/index.js';
import { type CorpusCase, DEFAULT_REFERENCE, DEFAULT_ZONE } from './corpus.js';

/** Deps frozen at `reference`, with no configured zone (cases pass their zone explicitly). */
export function frozenAt(reference: string = DEFAULT_REFERENCE, defaultTimezone?: string): TimeDeps {
  return { clock: fixedClock(reference), defaultTimezone };
}

/** A corpus case with its zone and reference filled in. */
export function withDefaults(testCase: CorpusCase): Required<CorpusCase> {
  return { zone: DEFAULT_ZONE, reference: DEFAULT_REFERENCE, ...testCase };
}

/**
 * The same instant as an RFC 3339 string in UTC with "+00:00", computed with Date (independent of
 * the luxon code under test). Date parses strings with an explicit offset the same on every host.
 */
export function utcOf(rfc3339: string): string {
  return new Date(rfc3339).toISOString().replace('.000Z', 'Z').replace('Z', '+00:00');
}
