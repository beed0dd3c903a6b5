import MiniSearch from 'minisearch';
import { untrustedField } from '../../firewall/untrusted-marks.js';
import type { Embedder } from '../../ports/index.js';
import type { MemoryItem } from '../store/memory-records.js';
import {
  KEYWORD_INDEX_OPTIONS,
  KEYWORD_SEARCH_OPTIONS,
  type KeywordDocument,
  keywordIndex,
} from './keyword-index.js';
import { snippet } from './snippet.js';
import { searchTerms } from './text-terms.js';
import { type StoredVectors, VectorMatrix } from './vector-matrix.js';

/** What the index keeps of a memory item: enough to filter and to show a result. */
export type IndexedItem = Pick<
  MemoryItem,
  'item_id' | 'branch_id' | 'kind' | 'category' | 'created_at' | 'text' | 'untrusted'
>;

export interface HybridSearchOptions {
  /** Results to return at most. */
  top_k: number;
  /** Results scoring below this (0–1) are left out. */
  min_score: number;
  /** Only this branch's items. */
  branch_id?: string;
  /** Only items of this ontology category. */
  category?: string;
}

export interface SearchHit {
  item_id: string;
  branch_id: string;
  kind: MemoryItem['kind'];
  category?: string;
  created_at: string;
  /** 0–1: 1 is first for both keywords and meaning; see {@link RRF_K}. */
  score: number;
  snippet: string;
  /** The item's firewall flags (see MemoryItem.untrusted). */
  untrusted?: string[];
}

export interface HybridAnswer {
  results: SearchHit[];
  /** Matches at or above min_score before top_k cut them. */
  total_results: number;
}

/**
 * Reciprocal rank fusion constant (Cormack et al. use 60): a result's fused score is
 * Σ 1/(RRF_K + rank) over the two rankings. Reported scores divide by the best possible sum
 * (first in both), so 1.0 = first for both, 0.5 = first for one and absent from the other.
 */
export const RRF_K = 60;
/** How deep each ranking is read before fusing. */
const CANDIDATES = 50;
/**
 * Cosine similarity below which a memory is not a semantic match at all. Hashed features of
 * unrelated texts still collide (noise about N(0, 1/√dimension)); without a floor every query
 * would "find" the least unrelated items. 0.2 removed nearly all hits for off-topic queries on the
 * fixture corpus while costing one relevant memory in 100 queries (recall@5 0.970 → 0.960).
 */
export const VECTOR_FLOOR = 0.2;
const EMBED_BATCH = 512;
/** Changes whenever the stored layout does; part of the blob key, so old layouts are never read. */
export const INDEX_FORMAT = 'meridian-search-index/4';

/**
 * A project's search index: BM25 over the text (minisearch) and one vector per item, fused with
 * reciprocal rank fusion. Serialisable, so it is built once per memory revision and read back
 * from the blob store.
 */
export class HybridIndex {
  private constructor(
    readonly revision: string,
    readonly modelId: string,
    readonly dimension: number,
    private readonly items: readonly IndexedItem[],
    private readonly keywords: MiniSearch<KeywordDocument>,
    private readonly vectors: VectorMatrix,
    private unstored: number,
  ) {}

  get size(): number {
    return this.items.length;
  }

  /**
   * Items added, changed or removed since the stored index this one descends from (0 for one read
   * back or stored since; every item for one built from scratch): what a process that reads the
   * stored index would have to redo.
   */
  get unstoredChanges(): number {
    return this.unstored;
  }

  /** This index is now the stored one. */
  markStored(): void {
    this.unstored = 0;
  }

  /**
   * Indexes `items` as of `revision`, keywords from scratch. Vectors of `previous` (same model) are
   * reused for items whose text did not change, so a write re-embeds only what it wrote.
   */
  static async build(
    items: readonly MemoryItem[],
    embedder: Embedder,
    revision: string,
    previous?: HybridIndex,
  ): Promise<HybridIndex> {
    const kept = indexedItems(items);
    const keywords = keywordIndex();
    keywords.addAll(kept.map(keywordDocument));
    const reusable = previous?.modelId === embedder.modelId ? previous : undefined;
    const vectors = await HybridIndex.embedAll(kept, embedder, reusable);
    return new HybridIndex(
      revision,
      embedder.modelId,
      embedder.dimension,
      kept,
      keywords,
      vectors,
      kept.length,
    );
  }

  /**
   * `previous` brought to `items` as of `revision`: its keyword index loses the items that are
   * gone or whose text changed and gains the new texts (BM25 over the result is the keyword index
   * {@link build} makes of `items`, without tokenising the rest again), and its vectors are reused
   * likewise. Undefined when that cannot be done — another model or dimension, or `previous`
   * already updated once (its keyword index now belongs to that update) — and the caller builds.
   *
   * @example
   * const next = (await HybridIndex.update(cached, items, embedder, revision)) ?? (await HybridIndex.build(items, embedder, revision, cached));
   */
  static async update(
    previous: HybridIndex,
    items: readonly MemoryItem[],
    embedder: Embedder,
    revision: string,
  ): Promise<HybridIndex | undefined> {
    if (previous.modelId !== embedder.modelId || previous.dimension !== embedder.dimension) return undefined;
    const kept = indexedItems(items);
    const taken = previous.takeKeywords(kept);
    if (taken === undefined) return undefined;
    const vectors = await HybridIndex.embedAll(kept, embedder, previous);
    return new HybridIndex(
      revision,
      embedder.modelId,
      embedder.dimension,
      kept,
      taken.keywords,
      vectors,
      previous.unstoredChanges + taken.changes,
    );
  }

  /**
   * Reads back {@link toBytes} output; undefined when it was built by another model or format
   * (the caller rebuilds: vectors of two models are never mixed).
   */
  static fromBytes(bytes: Uint8Array, embedder: Embedder): HybridIndex | undefined {
    let stored: StoredIndex;
    try {
      stored = JSON.parse(new TextDecoder().decode(bytes)) as StoredIndex;
    } catch {
      return undefined;
    }
    if (
      stored.format !== INDEX_FORMAT ||
      stored.model_id !== embedder.modelId ||
      stored.dimension !== embedder.dimension
    ) {
      return undefined;
    }
    const vectors = VectorMatrix.fromJSON(stored.vectors, stored.items.length, stored.dimension);
    if (vectors === undefined) return undefined;
    const keywords = MiniSearch.loadJS(stored.keywords, KEYWORD_INDEX_OPTIONS);
    return new HybridIndex(
      stored.revision,
      stored.model_id,
      stored.dimension,
      stored.items,
      keywords,
      vectors,
      0,
    );
  }

  toBytes(): Uint8Array {
    const stored: StoredIndex = {
      format: INDEX_FORMAT,
      model_id: this.modelId,
      dimension: this.dimension,
      revision: this.revision,
      items: this.items,
      keywords: this.keywords.toJSON(),
      vectors: this.vectors.toJSON(),
    };
    return new TextEncoder().encode(JSON.stringify(stored));
  }

  /**
   * The items that best match `query`, fused from the keyword and the vector ranking.
   *
   * @example
   * const { results } = await index.search('why did uploads fail', { top_k: 5, min_score: 0.3 }, embedder);
   */
  async search(query: string, options: HybridSearchOptions, embedder: Embedder): Promise<HybridAnswer> {
    const accepts = (at: number) => {
      const item = this.items[at]!;
      return (
        (options.branch_id === undefined || item.branch_id === options.branch_id) &&
        (options.category === undefined || item.category === options.category)
      );
    };
    const depth = Math.max(CANDIDATES, options.top_k * 2);
    // Equal scores in item order, so an updated index ranks exactly as a fresh build: minisearch
    // orders ties by when it indexed each document.
    const byKeyword = this.keywords
      .search(query, KEYWORD_SEARCH_OPTIONS)
      .flatMap((result) => {
        const at = this.positionOf(result.id as string);
        return at !== undefined && accepts(at) ? [{ at, score: result.score }] : [];
      })
      .sort((a, b) => b.score - a.score || a.at - b.at)
      .slice(0, depth)
      .map((hit) => hit.at);
    const [queryVector] = await embedder.embed([query]);
    const byMeaning = this.vectors.nearest(queryVector!, depth, VECTOR_FLOOR, accepts);

    const fused = new Map<number, number>();
    for (const ranking of [byKeyword, byMeaning]) {
      ranking.forEach((at, rank) => {
        fused.set(at, (fused.get(at) ?? 0) + 1 / (RRF_K + rank + 1));
      });
    }
    const best = 2 / (RRF_K + 1);
    const ranked = [...fused]
      .map(([at, sum]) => ({ at, score: Math.round((sum / best) * 1000) / 1000 }))
      .filter((hit) => hit.score >= options.min_score)
      .sort((a, b) => b.score - a.score || a.at - b.at);
    const queryTerms = new Set(searchTerms(query));
    return {
      total_results: ranked.length,
      results: ranked.slice(0, options.top_k).map(({ at, score }) => this.hit(at, score, queryTerms)),
    };
  }

  private hit(at: number, score: number, queryTerms: ReadonlySet<string>): SearchHit {
    const { item_id, branch_id, kind, category, created_at, text, untrusted } = this.items[at]!;
    return {
      item_id,
      branch_id,
      kind,
      ...(category === undefined ? {} : { category }),
      created_at,
      score,
      snippet: snippet(text, queryTerms),
      ...untrustedField(untrusted),
    };
  }

  /** Where this index holds `item` with the same text (its vector can be reused); -1 when it does not. */
  private reusablePosition(item: IndexedItem): number {
    const position = this.positionOf(item.item_id);
    return position !== undefined && this.items[position]!.text === item.text ? position : -1;
  }

  /**
   * Where an item is in this index; undefined for one it does not hold (a search still running on
   * an index whose keywords an update took over may meet the newer items).
   */
  private positionOf(itemId: string): number | undefined {
    this.positions ??= new Map(this.items.map((kept, position) => [kept.item_id, position]));
    return this.positions.get(itemId);
  }

  /**
   * This index's keyword index brought to `kept`, once: the items gone or changed are removed (with
   * the text they were indexed with, so their terms leave at once, not at a later vacuum), the new
   * texts added; `changes` counts both. Undefined when an update took it already, or when it does
   * not match this index's items (it was damaged): the caller then builds from scratch.
   */
  private takeKeywords(
    kept: readonly IndexedItem[],
  ): { keywords: MiniSearch<KeywordDocument>; changes: number } | undefined {
    if (this.keywordsTaken) return undefined;
    this.keywordsTaken = true;
    const textNow = new Map(kept.map((item) => [item.item_id, item.text]));
    let changes = 0;
    try {
      for (const item of this.items) {
        if (textNow.get(item.item_id) === item.text) continue;
        this.keywords.remove(keywordDocument(item));
        changes += 1;
      }
      for (const item of kept) {
        const at = this.positionOf(item.item_id);
        if (at !== undefined && this.items[at]!.text === item.text) continue;
        this.keywords.add(keywordDocument(item));
        changes += 1;
      }
    } catch {
      return undefined;
    }
    return { keywords: this.keywords, changes };
  }

  /** One vector per item: copied from `reusable` where it holds the same text, else embedded in batches. */
  private static async embedAll(
    kept: readonly IndexedItem[],
    embedder: Embedder,
    reusable: HybridIndex | undefined,
  ): Promise<VectorMatrix> {
    const vectors = VectorMatrix.empty(kept.length, embedder.dimension);
    const toEmbed: number[] = [];
    if (reusable) {
      const from = new Int32Array(kept.length);
      kept.forEach((item, at) => {
        from[at] = reusable.reusablePosition(item);
        if (from[at] === -1) toEmbed.push(at);
      });
      vectors.copyFrom(reusable.vectors, from);
    } else {
      for (const at of kept.keys()) toEmbed.push(at);
    }
    for (let from = 0; from < toEmbed.length; from += EMBED_BATCH) {
      const batch = toEmbed.slice(from, from + EMBED_BATCH);
      const embedded = await embedder.embed(batch.map((at) => kept[at]!.text));
      batch.forEach((at, i) => {
        assertDimension(embedded[i]!, embedder);
        vectors.set(at, embedded[i]!);
      });
    }
    return vectors;
  }

  private positions?: Map<string, number>;
  private keywordsTaken = false;
}

/** What the index keeps of each item, one per id (the first), in the order given. */
function indexedItems(items: readonly MemoryItem[]): IndexedItem[] {
  const seen = new Set<string>();
  const kept: IndexedItem[] = [];
  for (const { item_id, branch_id, kind, category, created_at, text, untrusted } of items) {
    if (seen.has(item_id)) continue;
    seen.add(item_id);
    kept.push({
      item_id,
      branch_id,
      kind,
      ...(category === undefined ? {} : { category }),
      created_at,
      text,
      ...untrustedField(untrusted),
    });
  }
  return kept;
}

const keywordDocument = (item: IndexedItem): KeywordDocument => ({ id: item.item_id, text: item.text });

interface StoredIndex {
  format: string;
  model_id: string;
  dimension: number;
  revision: string;
  items: readonly IndexedItem[];
  keywords: ReturnType<MiniSearch['toJSON']>;
  vectors: StoredVectors;
}

function assertDimension(vector: Float32Array, embedder: Embedder): void {
  if (vector.length !== embedder.dimension) {
    throw new Error(
      `Embedder ${embedder.modelId} answered a ${vector.length}-dimension vector, not ${embedder.dimension}.`,
    );
  }
}
