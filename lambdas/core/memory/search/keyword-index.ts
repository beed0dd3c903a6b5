import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import { normaliseTerm } from './text-terms.js';

/** What the keyword index holds per memory: its item id and its text. */
export interface KeywordDocument {
  id: string;
  text: string;
}

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * How memories are tokenised and scored for BM25. The bench runs bare minisearch with these same
 * options, so its baseline differs from search_context only by what the hybrid adds.
 */
export const KEYWORD_INDEX_OPTIONS: Options<KeywordDocument> = {
  fields: ['text'],
  tokenize: (text) => text.match(WORD) ?? [],
  processTerm: (term) => normaliseTerm(term) ?? null,
};

/**
 * Query options: any term may match (a long question should still find the memory that shares
 * three of its words); a term of five letters or more matches as a prefix too, and one of six or
 * more within one typo ("certficate" finds "certificate": recall@5 on the fixture's 20 hard
 * queries 0.95 → 1.0).
 */
export const KEYWORD_SEARCH_OPTIONS: SearchOptions = {
  combineWith: 'OR',
  prefix: (term) => term.length >= 5,
  fuzzy: (term) => (term.length >= 6 ? 1 : false),
};

/** An empty keyword index with the options above. */
export function keywordIndex(): MiniSearch<KeywordDocument> {
  return new MiniSearch(KEYWORD_INDEX_OPTIONS);
}

/** A keyword index read back from {@link MiniSearch.toJSON} output. */
export function loadKeywordIndex(json: string): MiniSearch<KeywordDocument> {
  return MiniSearch.loadJSON(json, KEYWORD_INDEX_OPTIONS);
}
