import type { MemoryItem } from '../memory-records.js';
import { type Anchor, extractAnchors, withoutAnchors } from './anchors.js';
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

/** BM25 constants (the usual defaults). */
const K1 = 1.2;
const B = 0.75;

/**
 * The project's memory cut into sentences, searchable by a claim's terms and anchors (BM25).
 * Built once per verification; a few thousand sentences take milliseconds.
 */
export class PassageIndex {
  readonly passages: Passage[];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;
  private readonly indexTerms: string[][];

  constructor(items: readonly MemoryItem[]) {
    this.passages = items.flatMap(passagesOf);
    this.indexTerms = this.passages.map((p) => [...p.terms, ...p.anchors.map((a) => `#${a.value}`)]);
    for (const terms of this.indexTerms) {
      for (const term of new Set(terms))
        this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
    }
    const total = this.indexTerms.reduce((sum, terms) => sum + terms.length, 0);
    this.averageLength = total / Math.max(1, this.indexTerms.length);
  }

  /** The `limit` passages that best match the query terms, best first. */
  search(queryTerms: readonly string[], limit: number): Passage[] {
    const n = this.passages.length;
    const query = [...new Set(queryTerms)];
    const scored = this.indexTerms.map((terms, index) => {
      let score = 0;
      for (const term of query) {
        const frequency = terms.filter((t) => t === term).length;
        if (frequency === 0) continue;
        const df = this.documentFrequency.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score +=
          (idf * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * terms.length) / this.averageLength));
      }
      return { index, score };
    });
    return scored
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, limit)
      .map((s) => this.passages[s.index]!);
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
