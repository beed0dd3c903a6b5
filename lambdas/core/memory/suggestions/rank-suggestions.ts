import { Bm25 } from '../grounding/bm25.js';
import { contentTerms } from '../grounding/claim-terms.js';
import type { MemoryItem } from '../store/memory-records.js';
import { coReferences } from './co-references.js';
import type { Suggestion, SuggestionSession } from './suggestion-history.js';

export interface RankedSuggestion extends Suggestion {
  /** Why, in a few words an agent can pass on. */
  reason: string;
}

/** A past task this similar (Dice coefficient of terms) counts as "the same kind of task". */
const SIMILAR_TASK = 0.3;
/** Similarity alone never claims more than this confidence (the reference's "ai_analysis" 70%). */
const SIMILARITY_CEILING = 0.7;
/** Reference history tops out here (the reference's 95%). */
const HISTORY_CEILING = 0.95;
/** How many of the most similar contexts lend confidence to what was accepted with them. */
const CO_REFERENCE_SEEDS = 3;

const round = (n: number) => Math.round(n * 100) / 100;

function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size + b.size === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared += 1;
  return (2 * shared) / (a.size + b.size);
}

/**
 * Ranks a project's contexts for a task: by similarity (BM25 order, confidence from the share of
 * the task's words a context repeats) and by reference history — contexts accepted for similar
 * tasks before, and contexts accepted together with the most similar ones (co-references).
 * Contexts suggested for a similar task and rejected lose confidence.
 */
export function rankSuggestions(
  items: readonly MemoryItem[],
  history: readonly SuggestionSession[],
  currentContext: string,
  topK: number,
): RankedSuggestion[] {
  const query = new Set(contentTerms(currentContext));
  const documents = items.map((item) => contentTerms(`${item.path ?? ''} ${item.text}`));
  const bm25 = new Bm25(documents).scores([...query]);
  const similarity = new Map<string, { confidence: number; shared: string[]; score: number }>();
  items.forEach((item, i) => {
    if (bm25[i]! <= 0) return;
    const terms = new Set(documents[i]);
    const shared = [...query].filter((t) => terms.has(t));
    similarity.set(item.item_id, {
      confidence: (SIMILARITY_CEILING * shared.length) / query.size,
      shared,
      score: bm25[i]!,
    });
  });

  const accepted = new Map<string, number>();
  const penalty = new Map<string, number>();
  for (const session of history) {
    const likeness = dice(query, new Set(contentTerms(session.current_context)));
    if (likeness < SIMILAR_TASK) continue;
    if (session.state === 'accepted') {
      for (const id of session.accepted_ids ?? []) accepted.set(id, (accepted.get(id) ?? 0) + likeness);
    } else if (session.state === 'rejected') {
      for (const s of session.suggestions)
        penalty.set(s.context_id, (penalty.get(s.context_id) ?? 0) + likeness);
    }
  }
  const together = coReferences(history);
  const seeds = [...similarity.entries()]
    .sort((a, b) => b[1].score - a[1].score)
    .slice(0, CO_REFERENCE_SEEDS);
  const withSeed = new Map<string, { seed: string; weight: number }>();
  for (const [seed, { confidence }] of seeds) {
    for (const [other, count] of together.get(seed) ?? []) {
      // Never above the seed's own confidence: it is borrowed from the seed.
      const weight = confidence * (0.5 + 0.4 * Math.min(1, count / 2));
      if (weight > (withSeed.get(other)?.weight ?? 0)) withSeed.set(other, { seed, weight });
    }
  }

  const byId = new Map(items.map((item) => [item.item_id, item]));
  const ranked: RankedSuggestion[] = [];
  for (const item of byId.values()) {
    const similar = similarity.get(item.item_id);
    const history = historyConfidence(
      accepted.get(item.item_id) ?? 0,
      withSeed.get(item.item_id)?.weight ?? 0,
    );
    const best = Math.max(similar?.confidence ?? 0, history);
    if (best <= 0) continue;
    const confidence = round(best * (1 - Math.min(0.8, 0.5 * (penalty.get(item.item_id) ?? 0))));
    const fromHistory = history >= (similar?.confidence ?? 0);
    ranked.push({
      context_id: item.item_id,
      branch_id: item.branch_id,
      source: fromHistory ? 'reference_history' : 'similarity',
      confidence,
      reason: fromHistory
        ? accepted.has(item.item_id)
          ? 'Accepted before for a similar task'
          : `Accepted together with ${withSeed.get(item.item_id)!.seed}`
        : `Shares: ${similar!.shared.slice(0, 5).join(', ')}`,
    });
  }
  return ranked
    .sort(
      (a, b) =>
        b.confidence - a.confidence ||
        (similarity.get(b.context_id)?.score ?? 0) - (similarity.get(a.context_id)?.score ?? 0) ||
        a.context_id.localeCompare(b.context_id),
    )
    .slice(0, topK);
}

/** Accepted for similar tasks (summed likeness), else what a co-reference lends: 0 when neither. */
function historyConfidence(acceptedLikeness: number, coReference: number): number {
  if (acceptedLikeness > 0) return Math.min(HISTORY_CEILING, 0.6 + 0.35 * Math.min(1, acceptedLikeness));
  return coReference;
}
