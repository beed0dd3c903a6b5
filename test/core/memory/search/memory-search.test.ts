import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTitanClient, TitanEmbedder } from '../../../../lambdas/adapters/bedrock/titan-embedder.js';
import { FileBlobStore } from '../../../../lambdas/adapters/files/file-blob-store.js';
import { localEmbedder } from '../../../../lambdas/core/memory/search/local-embedder.js';
import {
  indexFolder,
  indexKey,
  MemorySearch,
  STORE_AFTER_CHANGES,
} from '../../../../lambdas/core/memory/search/memory-search.js';
import type { MemoryItem } from '../../../../lambdas/core/memory/store/memory-records.js';
import { type Embedder, systemClock } from '../../../../lambdas/core/ports/index.js';
import { fixtureItems, ListMemoryReader } from '../../../fixtures/memory-search/corpus.js';
import { startFakeBedrock } from '../../../support/fake-bedrock.js';

const DEFAULTS = { top_k: 10, min_score: 0.3 };

/** An embedder that records how many texts each call embedded. */
function counting(embedder: Embedder): Embedder & { calls: number[] } {
  const calls: number[] = [];
  return {
    modelId: embedder.modelId,
    dimension: embedder.dimension,
    calls,
    embed: (texts) => {
      calls.push(texts.length);
      return embedder.embed(texts);
    },
  };
}
const embedded = (embedder: { calls: number[] }) => embedder.calls.reduce((sum, n) => sum + n, 0);

describe('MemorySearch', () => {
  let dir: string;
  let blobs: FileBlobStore;
  let reader: ListMemoryReader;
  const searchWith = (embedder: Embedder = localEmbedder()) =>
    new MemorySearch({ reader, blobs, embedder, clock: systemClock });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memsearch-'));
    blobs = new FileBlobStore(dir);
    reader = new ListMemoryReader(fixtureItems('p1'));
  });

  afterEach(() => rm(dir, { recursive: true, force: true }));

  describe('search', () => {
    it('answers the best match first, with a snippet around the matched words', async () => {
      const answer = await searchWith().search('p1', 'customers charged twice on double click', DEFAULTS);

      expect(answer.results[0]).toMatchObject({
        item_id: 'pay-2',
        branch_id: 'feature-billing',
        category: 'bug_fix',
      });
      expect(answer.results[0]!.snippet).toContain('charged twice');
      expect(answer.results[0]!.score).toBeGreaterThan(0.9);
      expect(answer.search_time_ms).toBeGreaterThanOrEqual(0);
    });

    it('scores from 0 to 1 in descending order, at most top_k, counting every match in total_results', async () => {
      const answer = await searchWith().search('p1', 'cache invalidation ttl', { top_k: 3, min_score: 0 });

      expect(answer.results).toHaveLength(3);
      expect(answer.total_results).toBeGreaterThan(3);
      const scores = answer.results.map((hit) => hit.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      for (const score of scores) expect(score).toBeLessThanOrEqual(1);
    });

    it('leaves out results below min_score', async () => {
      const all = await searchWith().search('p1', 'cache invalidation ttl', { top_k: 200, min_score: 0 });
      const strong = await searchWith().search('p1', 'cache invalidation ttl', {
        top_k: 200,
        min_score: 0.6,
      });

      expect(strong.total_results).toBeLessThan(all.total_results);
      expect(strong.results.every((hit) => hit.score >= 0.6)).toBe(true);
    });

    it('finds nothing for words no memory is about, rather than the least unrelated memory', async () => {
      const answer = await searchWith().search('p1', 'purple elephant symphony orchestra', DEFAULTS);

      expect(answer).toMatchObject({ results: [], total_results: 0 });
    });

    it('finds a memory through an abbreviation it does not contain', async () => {
      const answer = await searchWith().search('p1', 'k8s disruption budget', { top_k: 3, min_score: 0 });

      expect(answer.results.map((hit) => hit.item_id)).toContain('k8s-1');
      expect(fixtureItems('p1').find((item) => item.item_id === 'k8s-1')!.text).not.toMatch(/k8s/i);
    });

    it('keeps to one branch and one category when asked', async () => {
      const query = 'calendar dates shown wrong';
      const everywhere = await searchWith().search('p1', query, { top_k: 50, min_score: 0 });
      const narrowed = await searchWith().search('p1', query, {
        top_k: 50,
        min_score: 0,
        branch_id: 'feature-ui',
        category: 'bug_fix',
      });

      expect(everywhere.results.some((hit) => hit.branch_id !== 'feature-ui')).toBe(true);
      expect(narrowed.results.length).toBeGreaterThan(0);
      for (const hit of narrowed.results)
        expect(hit).toMatchObject({ branch_id: 'feature-ui', category: 'bug_fix' });
    });
  });

  describe('index persistence', () => {
    it('builds the index once per revision and stores it in the blob store', async () => {
      const first = await searchWith().search('p1', 'redis eviction', DEFAULTS);
      const again = await searchWith().search('p1', 'redis eviction', DEFAULTS);

      expect(first.index_source).toBe('built');
      // A new MemorySearch is a cold process: it reads the stored index instead of the table.
      expect(again.index_source).toBe('blob');
      expect(reader.itemReads).toBe(1);
      expect(again.results).toEqual(first.results);
      const stored = await blobs.list({ prefix: indexFolder('p1') });
      expect(stored.blobs).toHaveLength(1);
    });

    it('builds once for concurrent searches of one revision', async () => {
      const search = searchWith();

      const answers = await Promise.all(
        ['redis eviction', 'heap snapshot', 'dst change'].map((query) =>
          search.search('p1', query, DEFAULTS),
        ),
      );

      expect(answers.map((answer) => answer.index_source)).toEqual(['built', 'built', 'built']);
      expect(reader.itemReads).toBe(1);
    });

    it('answers from its cache while the revision holds', async () => {
      const search = searchWith();
      await search.search('p1', 'redis eviction', DEFAULTS);

      expect((await search.search('p1', 'heap snapshot', DEFAULTS)).index_source).toBe('memory');
    });

    it('updates a stale index when the memory changed, re-embedding only the new item', async () => {
      const embedder = counting(localEmbedder());
      const search = searchWith(embedder);
      const before = await search.search('p1', 'redis evicting session keys', DEFAULTS);
      const added: MemoryItem = {
        item_id: 'new-1',
        project_id: 'p1',
        branch_id: 'main',
        kind: 'entry',
        category: 'decision',
        created_at: '2026-11-23T10:00:00Z',
        text: 'Decided to name the release train Zeppelin.',
      };
      reader.write([...fixtureItems('p1'), added]);
      embedder.calls.length = 0;

      const found = await search.search('p1', 'zeppelin', DEFAULTS);
      const after = await search.search('p1', 'redis evicting session keys', DEFAULTS);

      expect(found.index_source).toBe('updated');
      expect(found.results.map((hit) => hit.item_id)).toEqual(['new-1']);
      // The new item and the two queries; the other 205 vectors came from the previous index.
      expect(embedded(embedder)).toBe(3);
      expect(after.results).toEqual(before.results);
      const stored = await blobs.list({ prefix: indexFolder('p1') });
      expect(stored.blobs).toHaveLength(1);
    });

    it(`stores an updated index only once ${STORE_AFTER_CHANGES} changes have gathered since the stored one`, async () => {
      const search = searchWith();
      await search.search('p1', 'redis eviction', DEFAULTS);
      const storedKeys = async () =>
        (await blobs.list({ prefix: indexFolder('p1') })).blobs.map((b) => b.key);
      const firstStored = await storedKeys();
      const notes: MemoryItem[] = [];
      const writeNote = () => {
        notes.push({
          ...fixtureItems('p1')[0]!,
          item_id: `note-${notes.length}`,
          text: `Release note ${notes.length}: the Zeppelin train ships build ${1000 + notes.length}.`,
        });
        reader.write([...fixtureItems('p1'), ...notes]);
      };

      for (let i = 1; i < STORE_AFTER_CHANGES; i += 1) {
        writeNote();
        const answer = await search.search('p1', `zeppelin build ${1000 + i - 1}`, DEFAULTS);
        expect(answer.index_source).toBe('updated');
        expect(answer.results[0]!.item_id).toBe(`note-${i - 1}`);
      }
      // 31 writes, each searched after: the stored index is still the first one.
      expect(await storedKeys()).toEqual(firstStored);

      writeNote();
      await search.search('p1', 'zeppelin release', DEFAULTS);

      const stored = await storedKeys();
      expect(stored).toEqual([indexKey('p1', localEmbedder().modelId, await reader.revision())]);
      // A new process reads the index of this revision instead of updating an older one.
      expect((await searchWith().search('p1', 'zeppelin release', DEFAULTS)).index_source).toBe('blob');
    });

    it('updates the stored index in a new process, re-embedding only what changed since it was stored', async () => {
      await searchWith().search('p1', 'redis eviction', DEFAULTS);
      const search = searchWith();
      await search.search('p1', 'redis eviction', DEFAULTS);
      const notes = ['Zeppelin ships on Fridays.', 'The Zeppelin train skips December.'].map(
        (text, n): MemoryItem => ({ ...fixtureItems('p1')[0]!, item_id: `z-${n}`, text }),
      );
      for (let written = 1; written <= notes.length; written += 1) {
        reader.write([...fixtureItems('p1'), ...notes.slice(0, written)]);
        await search.search('p1', 'zeppelin', DEFAULTS);
      }
      const embedder = counting(localEmbedder());

      const cold = await searchWith(embedder).search('p1', 'zeppelin december', DEFAULTS);

      expect(cold.index_source).toBe('updated');
      expect(cold.results[0]!.item_id).toBe('z-1');
      // The two notes, which the warm process never stored, and the query.
      expect(embedded(embedder)).toBe(3);
    });

    it('re-embeds with a new model instead of mixing its vectors with the stored ones', async () => {
      await searchWith(localEmbedder(384)).search('p1', 'redis eviction', DEFAULTS);
      const other = counting(localEmbedder(256));

      const answer = await searchWith(other).search('p1', 'redis eviction', DEFAULTS);

      expect(answer.index_source).toBe('built');
      // Every memory is embedded again (in batches), then the query once.
      expect(embedded(other)).toBe(fixtureItems('p1').length + 1);
      expect(answer.results[0]!.item_id).toBe('cache-5');
    });

    it('re-embeds an index of the local embedder with Bedrock Titan v2, then reads Titan’s back', async () => {
      const bedrock = await startFakeBedrock();
      const client = createTitanClient({
        endpoint: bedrock.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local-secret' },
      });
      try {
        await searchWith(localEmbedder()).search('p1', 'redis eviction', DEFAULTS);
        const [localIndex] = (await blobs.list({ prefix: indexFolder('p1') })).blobs;
        const titan = new TitanEmbedder({ client, dimension: 512 });

        const rebuilt = await searchWith(titan).search('p1', 'redis evicting session keys', DEFAULTS);
        const sentToBedrock = bedrock.requests.length;
        const read = await searchWith(titan).search('p1', 'redis evicting session keys', DEFAULTS);

        expect(rebuilt.index_source).toBe('built');
        // Every memory went to Bedrock at the configured dimension, and the query once.
        expect(sentToBedrock).toBe(fixtureItems('p1').length + 1);
        expect(new Set(bedrock.requests.map((r) => r.body.dimensions))).toEqual(new Set([512]));
        expect(rebuilt.results[0]!.item_id).toBe('cache-5');
        // The local model's index is gone; Titan's is labelled with its model and dimension.
        const stored = (await blobs.list({ prefix: indexFolder('p1') })).blobs;
        expect(stored.map((blob) => blob.key)).not.toContain(localIndex!.key);
        expect(stored).toHaveLength(1);
        const label = JSON.parse(new TextDecoder().decode(await blobs.get(stored[0]!.key)));
        expect(label).toMatchObject({ model_id: 'amazon.titan-embed-text-v2:0-512', dimension: 512 });
        // A cold process with the same model reads it back and embeds only the query.
        expect(read).toMatchObject({ index_source: 'blob', results: rebuilt.results });
        expect(bedrock.requests.length - sentToBedrock).toBe(1);
      } finally {
        client.destroy();
        await bedrock.close();
      }
    });

    it('replaces a damaged stored index instead of failing or reading it', async () => {
      await searchWith().search('p1', 'redis eviction', DEFAULTS);
      const [stored] = (await blobs.list({ prefix: indexFolder('p1') })).blobs;
      await blobs.delete(stored!.key);
      await blobs.put(stored!.key, new TextEncoder().encode('{"format": "meridian-search-ind'));

      const answer = await searchWith().search('p1', 'redis evicting session keys', DEFAULTS);
      const next = await searchWith().search('p1', 'redis evicting session keys', DEFAULTS);

      expect(answer.index_source).toBe('built');
      expect(answer.results[0]!.item_id).toBe('cache-5');
      expect(next.index_source).toBe('blob');
    });

    it('keeps projects apart', async () => {
      const search = searchWith();
      await search.search('p1', 'redis', DEFAULTS);
      reader.write([]);

      expect((await search.search('p2', 'redis', DEFAULTS)).results).toEqual([]);
    });
  });
});
