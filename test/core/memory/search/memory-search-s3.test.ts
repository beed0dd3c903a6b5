import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../../../lambdas/adapters/s3/s3-blob-store.js';
import { localEmbedder } from '../../../../lambdas/core/memory/search/local-embedder.js';
import { indexFolder, MemorySearch } from '../../../../lambdas/core/memory/search/memory-search.js';
import { systemClock } from '../../../../lambdas/core/ports/index.js';
import { fixtureItems, ListMemoryReader } from '../../../fixtures/memory-search/corpus.js';
import { type RunningS3rver, s3rverClient, startS3rver } from '../../../support/s3rver.js';

const BUCKET = 'meridian-search-test';
const OPTIONS = { top_k: 5, min_score: 0.3 };

/** The AWS path: the index goes to S3 (here s3rver) and a cold process reads it back from there. */
describe('MemorySearch over S3 (s3rver)', () => {
  let s3: RunningS3rver;
  let blobs: S3BlobStore;
  let destroy: () => void;

  beforeAll(async () => {
    s3 = await startS3rver([BUCKET]);
    const client = s3rverClient(s3.endpoint);
    destroy = () => client.destroy();
    blobs = new S3BlobStore({ client, bucket: BUCKET });
  });

  afterAll(async () => {
    destroy?.();
    await s3?.close();
  });

  it('stores the index once, reads it back in a cold process and replaces it when the memory changes', async () => {
    const reader = new ListMemoryReader(fixtureItems('p-s3'));
    const cold = () => new MemorySearch({ reader, blobs, embedder: localEmbedder(), clock: systemClock });

    const built = await cold().search('p-s3', 'redis evicting session keys', OPTIONS);
    const read = await cold().search('p-s3', 'redis evicting session keys', OPTIONS);
    reader.write(fixtureItems('p-s3').filter((item) => item.item_id !== 'cache-5'));
    const rebuilt = await cold().search('p-s3', 'redis evicting session keys', OPTIONS);

    expect(built.index_source).toBe('built');
    expect(read).toMatchObject({ index_source: 'blob', results: built.results });
    expect(built.results[0]!.item_id).toBe('cache-5');
    // A cold process after a write updates the stored index of the previous revision.
    expect(rebuilt.index_source).toBe('updated');
    expect(rebuilt.results.map((hit) => hit.item_id)).not.toContain('cache-5');
    expect((await blobs.list({ prefix: indexFolder('p-s3') })).blobs).toHaveLength(1);
  });
});
