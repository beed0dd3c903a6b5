import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTitanClient,
  TITAN_MAX_INPUT_CHARS,
  TitanEmbedder,
  type TitanEmbedderOptions,
} from '../../../lambdas/adapters/bedrock/titan-embedder.js';
import { DomainError } from '../../../lambdas/core/errors.js';
import { type FakeBedrock, startFakeBedrock } from '../../support/fake-bedrock.js';

const CREDENTIALS = { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local-secret' };

const norm = (vector: Float32Array) => Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0));
const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, v, i) => sum + v * b[i]!, 0);

/**
 * The adapter against a local HTTP fake of Bedrock's InvokeModel API: there is no Bedrock
 * emulator and no real Bedrock reachable here, so what is proven is the wire request (signed,
 * the model, the body Titan v2 documents) and the adapter's handling of the answers and errors.
 */
describe('TitanEmbedder (against a local fake of Bedrock InvokeModel)', () => {
  let bedrock: FakeBedrock;
  const clients: { destroy(): void }[] = [];
  const embedder = (options: Partial<TitanEmbedderOptions> = {}) => {
    const client = createTitanClient({
      endpoint: bedrock.endpoint,
      region: 'us-east-1',
      credentials: CREDENTIALS,
    });
    clients.push(client);
    // random 0 pins the jitter to no pause, so retries do not slow the suite.
    return new TitanEmbedder({ client, random: () => 0, ...options });
  };

  beforeAll(async () => {
    bedrock = await startFakeBedrock();
  });
  afterEach(() => {
    bedrock.requests.length = 0;
    bedrock.peak.inFlight = 0;
  });
  afterAll(async () => {
    for (const client of clients) client.destroy();
    await bedrock?.close();
  });

  describe('embed', () => {
    it('sends one signed InvokeModel per text to Titan v2 and answers unit vectors in order', async () => {
      const titan = embedder();

      const vectors = await titan.embed([
        'login fails after deploy',
        'authentication error',
        'redis eviction',
      ]);

      expect(titan).toMatchObject({ modelId: 'amazon.titan-embed-text-v2:0-1024', dimension: 1024 });
      expect(bedrock.requests).toHaveLength(3);
      for (const request of bedrock.requests) {
        expect(request).toMatchObject({
          modelId: 'amazon.titan-embed-text-v2:0',
          signed: true,
          body: { dimensions: 1024, normalize: true },
        });
      }
      expect(bedrock.requests.map((r) => r.body.inputText).sort()).toEqual(
        ['authentication error', 'login fails after deploy', 'redis eviction'].sort(),
      );
      expect(vectors.map((v) => v.length)).toEqual([1024, 1024, 1024]);
      for (const vector of vectors) expect(norm(vector)).toBeCloseTo(1, 5);
      // Order kept: the login text is nearer the authentication one than the cache one is.
      expect(dot(vectors[0]!, vectors[1]!)).toBeGreaterThan(dot(vectors[2]!, vectors[1]!));
    });

    it('asks for 512 dimensions and labels its vectors with them', async () => {
      const titan = embedder({ dimension: 512 });

      const [vector] = await titan.embed(['retry the S3 upload on 503']);

      expect(titan.modelId).toBe('amazon.titan-embed-text-v2:0-512');
      expect(vector).toHaveLength(512);
      expect(bedrock.requests[0]!.body.dimensions).toBe(512);
    });

    it('sends nothing for a text without words, and cuts a long one to what Titan accepts', async () => {
      const [blank, long] = await embedder().embed(['   ', `deploy ${'x'.repeat(60_000)}`]);

      expect(Array.from(blank!).every((v) => v === 0)).toBe(true);
      expect(bedrock.requests).toHaveLength(1);
      expect(bedrock.requests[0]!.body.inputText).toHaveLength(TITAN_MAX_INPUT_CHARS);
      expect(long).toHaveLength(1024);
    });

    it('keeps at most `concurrency` calls in flight over a large batch, answering every text', async () => {
      const texts = Array.from({ length: 40 }, (_, i) => `memory number ${i} about caching`);

      const vectors = await embedder({ concurrency: 3 }).embed(texts);

      expect(vectors).toHaveLength(40);
      expect(bedrock.peak.inFlight).toBeLessThanOrEqual(3);
      expect(bedrock.requests.map((r) => r.body.inputText).sort()).toEqual([...texts].sort());
    });
  });

  describe('failures', () => {
    it('retries throttling and transient faults, then answers', async () => {
      bedrock.failNext(1, 'ThrottlingException', 429);
      bedrock.failNext(1, 'ServiceUnavailableException', 503);

      const [vector] = await embedder().embed(['flaky network']);

      expect(vector).toHaveLength(1024);
      expect(bedrock.requests).toHaveLength(3);
    });

    it('gives up after maxAttempts with NETWORK_ERROR, saying to retry later', async () => {
      bedrock.failNext(3, 'ThrottlingException', 429);

      const failure = await embedder({ maxAttempts: 3 })
        .embed(['busy'])
        .catch((e: unknown) => e);

      expect(failure).toBeInstanceOf(DomainError);
      expect(failure).toMatchObject({
        code: 'NETWORK_ERROR',
        message: expect.stringMatching(/retry in a minute/),
      });
      expect(bedrock.requests).toHaveLength(3);
    });

    it('does not retry a refusal, and says how to enable the model', async () => {
      bedrock.failNext(1, 'AccessDeniedException', 403);

      const failure = await embedder()
        .embed(['no access'])
        .catch((e: unknown) => e);

      expect(failure).toMatchObject({
        code: 'PROVIDER_ERROR',
        message: expect.stringMatching(/AccessDeniedException.*enable access to that model/),
      });
      expect(bedrock.requests).toHaveLength(1);
    });
  });
});
