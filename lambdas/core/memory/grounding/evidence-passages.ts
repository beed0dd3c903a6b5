import { stem } from '../search/text-terms.js';
import type { MemoryItem } from '../store/memory-records.js';
import { type Anchor, extractAnchors, withoutAnchors } from './anchors.js';
import { Bm25 } from './bm25.js';
import { contentTerms, isFiller, isNegated, words } from './claim-terms.js';
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

/** A sentence of one item, before the work of judging it (done only for retrieved ones). */
interface SentenceRef {
  item: MemoryItem;
  /** Every sentence of the item (shared), and this one's place among them. */
  sentences: readonly string[];
  index: number;
}

/**
 * The project's memory cut into sentences, searchable by a claim's words (BM25). Indexing only
 * splits and stems words; anchors, clauses and neighbours are worked out for the few sentences a
 * claim retrieves, so a check over 10,000 memories stays well under a second.
 */
export class PassageIndex {
  private readonly refs: SentenceRef[];
  private readonly bm25: Bm25;
  private readonly judged = new Map<number, Passage>();

  constructor(items: readonly MemoryItem[]) {
    this.refs = items.flatMap((item) => {
      const all = sentences(item.text);
      return all.map((_, index) => ({ item, sentences: all, index }));
    });
    this.bm25 = new Bm25(this.refs.map((ref) => searchTerms(ref.sentences[ref.index]!)));
  }

  /** Passages (sentences) indexed: what each search scores. */
  get size(): number {
    return this.refs.length;
  }

  /** The `limit` passages that best match the query terms, best first. */
  search(queryTerms: readonly string[], limit: number): Passage[] {
    return this.bm25.top(queryTerms, limit).map((hit) => this.passage(hit.index));
  }

  private passage(index: number): Passage {
    const known = this.judged.get(index);
    if (known) return known;
    const passage = passageOf(this.refs[index]!);
    this.judged.set(index, passage);
    return passage;
  }
}

/** The words search compares: every stemmed word that is not a stop word, numbers and path parts included. */
function searchTerms(text: string): string[] {
  return words(text)
    .filter((w) => !isFiller(w))
    .map(stem);
}

function passageOf({ item, sentences: texts, index: i }: SentenceRef): Passage {
  const near = texts.slice(Math.max(0, i - 1), i + 2);
  const text = texts[i]!;
  const termsOf = (sentence: string) => new Set(contentTerms(withoutAnchors(sentence)));
  const anchors = extractAnchors(text);
  return {
    item,
    text,
    anchors,
    contextAnchors: near.flatMap((sentence) => (sentence === text ? anchors : extractAnchors(sentence))),
    contextText: near.join(' '),
    negated: isNegated(text),
    terms: termsOf(text),
    clauses: text
      .split(CLAUSE_BREAK)
      .map((clause) => ({ text: clause, terms: termsOf(clause), negated: isNegated(clause) })),
    contextTerms: new Set(near.flatMap((sentence) => [...termsOf(sentence)])),
  };
}

/** The query a claim searches with: its terms and the words of its anchors. */
export function claimQuery(claim: { terms: readonly string[]; anchors: readonly Anchor[] }): string[] {
  return [...claim.terms, ...claim.anchors.flatMap((a) => searchTerms(a.value))];
}
