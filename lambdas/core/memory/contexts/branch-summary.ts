import { unionOfMarks } from '../../firewall/untrusted-marks.js';
import type { BranchView } from '../store/memory-store.js';
import { summarize, summarizedEntries } from './context-body.js';
import { contextText } from './context-text.js';

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

/**
 * What a resuming agent is shown of a branch: the summary, the latest messages that fit in
 * `maxChars`, and the firewall flags of the topic (the summary opens with it) and of every entry
 * either one quotes; `entriesUntrusted` without the topic's, for a warning that names which.
 */
export function resumeView(view: BranchView, maxChars: number) {
  const latest = contextText(view.entries, maxChars);
  const quoted = summarizedEntries(view.entries).map((entry) => entry.untrusted);
  const entriesUntrusted = unionOfMarks([...quoted, latest.untrusted]);
  return {
    summary: activeSummary(view),
    latest,
    untrusted: unionOfMarks([view.branch.untrusted, entriesUntrusted]),
    entriesUntrusted,
  };
}
