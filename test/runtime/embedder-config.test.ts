import { describe, expect, it } from 'vitest';
import { embedderFrom } from '../../lambdas/runtime/embedder-config.js';
import { parseEnvironment } from '../../lambdas/runtime/environment.js';

const embedderOf = (env: Record<string, string>) => embedderFrom(parseEnvironment(env).embeddings);

describe('embedderFrom (MERIDIAN_EMBEDDINGS)', () => {
  it('leaves the local embedder in place when unset or `local`', () => {
    expect(embedderOf({})).toBeUndefined();
    expect(embedderOf({ MERIDIAN_EMBEDDINGS: 'local' })).toBeUndefined();
  });

  it('labels Bedrock vectors with the model and dimension before the client loads', () => {
    expect(embedderOf({ MERIDIAN_EMBEDDINGS: 'bedrock' })).toMatchObject({
      modelId: 'amazon.titan-embed-text-v2:0-1024',
      dimension: 1024,
    });
    expect(embedderOf({ MERIDIAN_EMBEDDINGS: 'bedrock', MERIDIAN_EMBEDDING_DIMENSION: '256' })).toMatchObject(
      {
        modelId: 'amazon.titan-embed-text-v2:0-256',
        dimension: 256,
      },
    );
  });

  it('fails at start on an unknown embedder or dimension, naming the variable and what it accepts', () => {
    expect(() => embedderOf({ MERIDIAN_EMBEDDINGS: 'titan' })).toThrow(
      'MERIDIAN_EMBEDDINGS must be one of local, bedrock (got "titan").',
    );
    expect(() => embedderOf({ MERIDIAN_EMBEDDINGS: 'bedrock', MERIDIAN_EMBEDDING_DIMENSION: '384' })).toThrow(
      'MERIDIAN_EMBEDDING_DIMENSION must be 1024, 512 or 256 for bedrock (got "384").',
    );
  });
});
