import { summarize } from './context-body.js';
import type { BranchView } from './memory-store.js';

/**
 * A branch's summary as get_active_summary, the summary resource and the resume-work prompt
 * show it: the one kept when its context was compressed (it covers entries no longer in rows),
 * else one made from the entries now. Deterministic either way.
 */
export function activeSummary(view: BranchView): string {
  const compressedSummary = view.context?.compressed ? view.context.summary : undefined;
  return compressedSummary && view.rows.length === 0
    ? compressedSummary
    : summarize(view.branch.topic, view.entries);
}
