import type { SuggestionSession } from './suggestion-history.js';

/**
 * How often each pair of contexts was accepted in one session: the reference history behind
 * suggestions and the graph's co-reference edges. Symmetric: `get(a).get(b) === get(b).get(a)`.
 *
 * @example
 * coReferences([{ state: 'accepted', accepted_ids: ['a', 'b'], … }]).get('a')?.get('b'); // 1
 */
export function coReferences(sessions: readonly SuggestionSession[]): Map<string, Map<string, number>> {
  const pairs = new Map<string, Map<string, number>>();
  const add = (a: string, b: string) => {
    const row = pairs.get(a) ?? new Map<string, number>();
    row.set(b, (row.get(b) ?? 0) + 1);
    pairs.set(a, row);
  };
  for (const session of sessions) {
    if (session.state !== 'accepted') continue;
    const ids = [...new Set(session.accepted_ids ?? [])];
    for (const [i, a] of ids.entries()) {
      for (const b of ids.slice(i + 1)) {
        add(a, b);
        add(b, a);
      }
    }
  }
  return pairs;
}
