/** BM25 constants (the usual defaults). */
const K1 = 1.2;
const B = 0.75;

/**
 * Okapi BM25 over documents already cut into terms: small enough to build per request over a
 * project's memory (thousands of documents in milliseconds), so nothing needs persisting.
 *
 * @example
 * new Bm25([['cache', 'ttl'], ['retry']]).scores(['ttl']); // [0.87…, 0]
 */
export class Bm25 {
  private readonly frequencies: Map<string, number>[];
  private readonly documentFrequency = new Map<string, number>();
  private readonly lengths: number[];
  private readonly averageLength: number;

  constructor(documents: readonly (readonly string[])[]) {
    this.frequencies = documents.map((terms) => {
      const counts = new Map<string, number>();
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const term of counts.keys())
        this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      return counts;
    });
    this.lengths = documents.map((terms) => terms.length);
    this.averageLength = this.lengths.reduce((sum, n) => sum + n, 0) / Math.max(1, documents.length);
  }

  /** Each document's score for the query, in document order (0 when it shares no term). */
  scores(queryTerms: readonly string[]): number[] {
    const n = this.frequencies.length;
    const query = [...new Set(queryTerms)].map((term) => {
      const df = this.documentFrequency.get(term) ?? 0;
      return { term, idf: Math.log(1 + (n - df + 0.5) / (df + 0.5)) };
    });
    return this.frequencies.map((counts, index) => {
      const norm = K1 * (1 - B + (B * this.lengths[index]!) / (this.averageLength || 1));
      let score = 0;
      for (const { term, idf } of query) {
        const frequency = counts.get(term);
        if (frequency) score += (idf * frequency * (K1 + 1)) / (frequency + norm);
      }
      return score;
    });
  }

  /** The indexes of the `limit` best-scoring documents that share a term with the query, best first. */
  top(queryTerms: readonly string[], limit: number): { index: number; score: number }[] {
    return this.scores(queryTerms)
      .map((score, index) => ({ index, score }))
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, limit);
  }
}
