import { unionOfMarks } from '../../firewall/untrusted-marks.js';
import { contentTerms } from '../grounding/claim-terms.js';
import { sentences } from '../grounding/claims.js';
import { rejectedAlternatives } from '../grounding/rejected-alternatives.js';
import type { MemoryItem } from '../store/memory-records.js';

/**
 * What a project's memory says was decided, across every branch: the decisions, the
 * alternatives they set aside, and the questions still open — read sentence by sentence from
 * the entries, without a model, so the same memory always gives the same answer. A question a
 * later decision answers (one repeating most of its words) is no longer open.
 */

/** A sentence of one entry, and where it is. */
export interface DecisionNote {
  text: string;
  branch_id: string;
  entry_id: string;
}

export interface RejectedNote extends DecisionNote {
  /** The alternative as memory names it ("Adyen", "a cron table"). */
  alternative: string;
}

export interface ProjectDecisions {
  decisions: DecisionNote[];
  rejected: RejectedNote[];
  open_questions: DecisionNote[];
  /** How many of each were left out (the oldest go first). */
  omitted: { decisions: number; rejected: number; open_questions: number };
  /** The firewall flags of every entry quoted. */
  untrusted: string[];
}

/** The most of each list an answer carries: the newest are kept. */
export const DECISIONS_SHOWN = { decisions: 25, rejected: 25, open_questions: 15 } as const;
const SENTENCE_CHARS = 240;

// A sentence that records a choice: "we decided", "chose X", "went with", "X instead of Y", "switched to".
const DECISION =
  /\b(?:decid(?:e|ed|ing)|decision|chose|chosen|choose|picked|selected|opted|agreed|settled on|went with|go(?:ing)? with|switch(?:ed)? (?:to|from)|moved? (?:to|off|away from)|adopt(?:ed)?|in favou?r of|instead of|rather than|standardi[sz]ed on|replaced?|dropped|ruled out|rejected)\b/i;
// A sentence that leaves something open.
const OPEN =
  /\?\s*$|^\s*(?:open question|question|todo|tbd)\b|\b(?:undecided|to be decided|not (?:yet )?decided|still (?:need to |to )?(?:decide|figure out|choose)|unresolved|open question)\b/i;
/** A later decision repeating this share of an open question's words answers it. */
const ANSWERED_SHARE = 0.6;

/**
 * The decisions, rejected alternatives and open questions of `items` (oldest first, as
 * MemoryReader.items gives them); entries only: files describe, and summaries repeat entries.
 *
 * @example
 * projectDecisions(items).rejected[0]; // { alternative: 'Adyen', text: 'Payment processor: Stripe chosen, Adyen rejected.', … }
 */
export function projectDecisions(items: readonly MemoryItem[]): ProjectDecisions {
  const decisions: (DecisionNote & { terms: Set<string> })[] = [];
  const rejected: RejectedNote[] = [];
  let open: (DecisionNote & { terms: string[] })[] = [];
  const quoted = new Map<string, string[] | undefined>();
  const seen = new Set<string>();
  for (const item of items) {
    if (item.kind !== 'entry') continue;
    for (const sentence of sentences(item.text)) {
      const key = sentence.toLowerCase().replace(/\s+/g, ' ');
      if (seen.has(key)) continue;
      const note = { text: cut(sentence), branch_id: item.branch_id, entry_id: item.item_id };
      if (OPEN.test(sentence)) {
        seen.add(key);
        quoted.set(item.item_id, item.untrusted);
        open.push({ ...note, terms: [...new Set(contentTerms(sentence))] });
        continue;
      }
      const alternatives = rejectedAlternatives(sentence).filter(
        (a) => a.kind === 'rejected_alternative' || DECISION.test(sentence),
      );
      if (alternatives.length === 0 && !DECISION.test(sentence)) continue;
      seen.add(key);
      quoted.set(item.item_id, item.untrusted);
      const terms = new Set(contentTerms(sentence));
      decisions.push({ ...note, terms });
      for (const { text } of alternatives) rejected.push({ ...note, alternative: text });
      open = open.filter((q) => q.terms.filter((t) => terms.has(t)).length < ANSWERED_SHARE * q.terms.length);
    }
  }
  const newest = <T>(list: T[], most: number) => list.slice(Math.max(0, list.length - most));
  const shown = {
    decisions: newest(decisions, DECISIONS_SHOWN.decisions).map(({ terms: _t, ...note }) => note),
    rejected: newest(rejected, DECISIONS_SHOWN.rejected),
    open_questions: newest(open, DECISIONS_SHOWN.open_questions).map(({ terms: _t, ...note }) => note),
  };
  const shownEntries = new Set(
    [...shown.decisions, ...shown.rejected, ...shown.open_questions].map((n) => n.entry_id),
  );
  return {
    ...shown,
    omitted: {
      decisions: decisions.length - shown.decisions.length,
      rejected: rejected.length - shown.rejected.length,
      open_questions: open.length - shown.open_questions.length,
    },
    untrusted: unionOfMarks([...quoted].filter(([id]) => shownEntries.has(id)).map(([, marks]) => marks)),
  };
}

function cut(text: string): string {
  return text.length <= SENTENCE_CHARS ? text : `${text.slice(0, SENTENCE_CHARS - 1)}…`;
}
