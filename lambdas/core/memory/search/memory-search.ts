import {
  BlobExistsError,
  BlobNotFoundError,
  type BlobStore,
  type Clock,
  type Embedder,
  sha256Hex,
} from '../../ports/index.js';
import type { MemoryReader } from '../store/memory-records.js';
import { type HybridAnswer, HybridIndex, type HybridSearchOptions, INDEX_FORMAT } from './hybrid-index.js';

export interface MemorySearchDeps {
  reader: MemoryReader;
  blobs: BlobStore;
  embedder: Embedder;
  /** Times the search for `search_time_ms`. */
  clock: Clock;
}

export interface MemorySearchAnswer extends HybridAnswer {
  search_time_ms: number;
  /**
   * Where the index came from: this process's cache, the blob store, an earlier index (cached or
   * stored) updated with what changed since, or built from the table now.
   */
  index_source: 'memory' | 'blob' | 'updated' | 'built';
}

/** Projects whose index stays in memory between calls (a warm Lambda, the embedded server). */
const CACHED_PROJECTS = 8;

/**
 * An updated index is stored once this many item changes have gathered since the stored one.
 * Storing is most of a search after a write (at 10,000 memories, serialising the index takes
 * 100–170 ms, minisearch's `toJSON` most of it, and writes 10.9 MiB), and only a process without
 * the index in memory reads it: that process updates the stored index instead, re-embedding at
 * most this many texts less one (with Titan, four rounds of 8 requests).
 */
export const STORE_AFTER_CHANGES = 32;

/**
 * Hybrid search over a project's memory. The index is built once — from `reader.items` — and
 * persisted in the blob store under the project, the embedder's model and the revision; a call
 * finds it in its cache or there while the revision holds. When the revision moved, the cached
 * index (or, in a new process, the stored one) is updated with what changed, and stored again
 * only every {@link STORE_AFTER_CHANGES} changes; another model's index is rebuilt.
 */
export class MemorySearch {
  private readonly cache = new Map<string, HybridIndex>();
  private readonly loading = new Map<string, Promise<{ index: HybridIndex; source: LoadedSource }>>();

  constructor(private readonly deps: MemorySearchDeps) {}

  /**
   * @example
   * const answer = await search.search('p1', 'why did the S3 upload fail', { top_k: 10, min_score: 0.3 });
   */
  async search(projectId: string, query: string, options: HybridSearchOptions): Promise<MemorySearchAnswer> {
    const started = this.deps.clock.now().getTime();
    const { index, source } = await this.index(projectId);
    const answer = await index.search(query, options, this.deps.embedder);
    return { ...answer, search_time_ms: this.deps.clock.now().getTime() - started, index_source: source };
  }

  /** The current index of a project: cached, read back, or built and stored. */
  async index(
    projectId: string,
  ): Promise<{ index: HybridIndex; source: MemorySearchAnswer['index_source'] }> {
    // Revision first, items after: a write in between makes the index newer than its label, so
    // the next call rebuilds needlessly; the other order could label old items as current.
    const revision = await this.deps.reader.revision(projectId);
    const cached = this.cache.get(projectId);
    if (cached?.revision === revision && cached.modelId === this.deps.embedder.modelId) {
      return { index: cached, source: 'memory' };
    }
    const key = indexKey(projectId, this.deps.embedder.modelId, revision);
    // Concurrent searches of one revision share one load or build instead of each doing it.
    let pending = this.loading.get(key);
    if (pending === undefined) {
      pending = this.loadOrBuild(projectId, key, revision, cached).finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  private async loadOrBuild(
    projectId: string,
    key: string,
    revision: string,
    cached: HybridIndex | undefined,
  ): Promise<{ index: HybridIndex; source: LoadedSource }> {
    const stored = await this.read(key);
    if (stored !== undefined) {
      this.remember(projectId, stored);
      return { index: stored, source: 'blob' };
    }
    const [items, previous] = await Promise.all([
      this.deps.reader.items(projectId),
      cached?.modelId === this.deps.embedder.modelId ? cached : this.readEarlier(projectId, key),
    ]);
    const { embedder } = this.deps;
    const updated = previous && (await HybridIndex.update(previous, items, embedder, revision));
    const index = updated || (await HybridIndex.build(items, embedder, revision, previous ?? cached));
    if (!updated || index.unstoredChanges >= STORE_AFTER_CHANGES) {
      await this.store(key, index);
      index.markStored();
      await this.forgetOthers(projectId, key);
    }
    this.remember(projectId, index);
    return { index, source: updated ? 'updated' : 'built' };
  }

  /**
   * The index this project stored for an earlier revision with this model and layout (a new
   * process after writes), to update rather than build; undefined when there is none readable.
   */
  private async readEarlier(projectId: string, current: string): Promise<HybridIndex | undefined> {
    const { blobs } = await this.deps.blobs.list({
      prefix: modelFolder(projectId, this.deps.embedder.modelId),
    });
    const earlier = blobs.find((blob) => blob.key !== current);
    return earlier === undefined ? undefined : this.read(earlier.key);
  }

  private async read(key: string): Promise<HybridIndex | undefined> {
    let bytes: Uint8Array;
    try {
      bytes = await this.deps.blobs.get(key);
    } catch (error) {
      if (error instanceof BlobNotFoundError) return undefined;
      throw error;
    }
    const index = HybridIndex.fromBytes(bytes, this.deps.embedder);
    // Unreadable (damaged): remove it, or the create-only store would refuse the rebuilt one.
    if (index === undefined) await this.deps.blobs.delete(key);
    return index;
  }

  private async store(key: string, index: HybridIndex): Promise<void> {
    try {
      await this.deps.blobs.put(key, index.toBytes());
    } catch (error) {
      // Another call built the same revision first: its index is this one, byte for byte.
      if (!(error instanceof BlobExistsError)) throw error;
    }
  }

  /**
   * Deletes the project's indexes of other revisions or models. Best effort: a leftover costs only
   * space, and a concurrent builder of a newer revision that loses its blob simply rebuilds.
   */
  private async forgetOthers(projectId: string, keep: string): Promise<void> {
    try {
      const page = await this.deps.blobs.list({ prefix: indexFolder(projectId) });
      await Promise.all(
        page.blobs.filter((blob) => blob.key !== keep).map((blob) => this.deps.blobs.delete(blob.key)),
      );
    } catch {
      // Ignored on purpose: see above.
    }
  }

  private remember(projectId: string, index: HybridIndex): void {
    this.cache.delete(projectId);
    this.cache.set(projectId, index);
    // Map keeps insertion order: the first key is the least recently used.
    if (this.cache.size > CACHED_PROJECTS) this.cache.delete(this.cache.keys().next().value!);
  }
}

/**
 * The top-level prefix of every search index. Outside `projects/<project>/` on purpose: an
 * index is derived data (snapshots need not carry it), and one top-level prefix lets a bucket
 * lifecycle rule (lib/constructs/memory-bucket.ts) expire the old versions every rebuild leaves
 * behind in a versioned bucket.
 */
export const SEARCH_INDEX_PREFIX = 'search-index/';

/** The blob folder of a project's search indexes. */
export function indexFolder(projectId: string): string {
  return `${SEARCH_INDEX_PREFIX}${projectId}/`;
}

/**
 * Where the index of one revision built by one model in one layout lives. They are hashed:
 * they are opaque strings that may hold characters a blob key may not.
 */
export function indexKey(projectId: string, modelId: string, revision: string): string {
  return `${modelFolder(projectId, modelId)}${digest(revision)}.json`;
}

/** The key prefix of a project's indexes built by one model in this layout. */
function modelFolder(projectId: string, modelId: string): string {
  return `${indexFolder(projectId)}${digest(`${INDEX_FORMAT} ${modelId}`)}-`;
}

const digest = (text: string) => sha256Hex(new TextEncoder().encode(text)).slice(0, 32);

type LoadedSource = Exclude<MemorySearchAnswer['index_source'], 'memory'>;
