import type { MemoryItem } from '../memory-records.js';
import { type Anchor, extractAnchors, withoutAnchors } from './anchors.js';
import { Bm25 } from './bm25.js';
import { contentTerms, isNegated } from './claim-terms.js';
import { sentences } from './claims.js';

/** One sentence of the project's memory, with the sentences around it for context. */
export interface Passage {
  item: MemoryItem;
  text: string;
  anchors: Anchor[];
  negated: boolean;
  /** Its own content terms. */
  terms: Set<string>;
  /** Its terms and its neighbours' (a claim may join two adjacent sentences). */
  contextTerms: Set<string>;
  /** Its anchors and its neighbours', with their text: what support counts (not contradictions). */
  contextAnchors: Anchor[];
  contextText: string;
  /** Its clauses: polarity is judged on the one the claim talks about ("kept in X, never in Y"). */
  clauses: Clause[];
}

export interface Clause {
  text: string;
  terms: Set<string>;
  negated: boolean;
}

/** Where a sentence's clauses part: punctuation, and conjunctions that start another statement. */
const CLAUSE_BREAK = /[,;:()]|\s(?:and|but|because|although|though|while|whereas|so|instead)\s/i;

/**
 * The project's memory cut into sentences, searchable by a claim's terms and anchors (BM25).
 * Built once per verification; a few thousand sentences take milliseconds.
 */
export class PassageIndex {
  readonly passages: Passage[];
  private readonly bm25: Bm25;

  constructor(items: readonly MemoryItem[]) {
    this.passages = items.flatMap(passagesOf);
    this.bm25 = new Bm25(this.passages.map((p) => [...p.terms, ...p.anchors.map((a) => `#${a.value}`)]));
  }

  /** The `limit` passages that best match the query terms, best first. */
  search(queryTerms: readonly string[], limit: number): Passage[] {
    return this.bm25.top(queryTerms, limit).map((hit) => this.passages[hit.index]!);
  }
}

function passagesOf(item: MemoryItem): Passage[] {
  const texts = sentences(item.text);
  const terms = texts.map((text) => new Set(contentTerms(withoutAnchors(text))));
  const anchors = texts.map(extractAnchors);
  const around = <T>(list: T[][], i: number) => [...(list[i - 1] ?? []), ...list[i]!, ...(list[i + 1] ?? [])];
  return texts.map((text, i) => ({
    item,
    text,
    anchors: anchors[i]!,
    contextAnchors: around(anchors, i),
    contextText: texts.slice(Math.max(0, i - 1), i + 2).join(' '),
    negated: isNegated(text),
    terms: terms[i]!,
    clauses: text.split(CLAUSE_BREAK).map((clause) => ({
      text: clause,
      terms: new Set(contentTerms(withoutAnchors(clause))),
      negated: isNegated(clause),
    })),
    contextTerms: new Set([...(terms[i - 1] ?? []), ...terms[i]!, ...(terms[i + 1] ?? [])]),
  }));
}

/** The query a claim searches with: its terms and its anchors (anchors are indexed as `#value`). */
export function claimQuery(claim: { terms: readonly string[]; anchors: readonly Anchor[] }): string[] {
  return [...claim.terms, ...claim.anchors.map((a) => `#${a.value}`)];
}
