import { titanEmbedderModelId } from '../adapters/bedrock/titan-model.js';
import { once } from '../core/once.js';
import type { Embedder } from '../core/ports/index.js';
import type { Environment } from './environment.js';

/**
 * The embedder MERIDIAN_EMBEDDINGS names (parsed by environment.ts), or undefined for `local`:
 * the composition then uses the local embedder. `bedrock` is Titan v2 at
 * MERIDIAN_EMBEDDING_DIMENSION. Its model id and dimension are known at once (an index is looked
 * up by them), while the Bedrock client loads on the first text to embed: a cold start that never
 * searches memory never loads it.
 *
 * @example
 * embedderFrom(parseEnvironment({ MERIDIAN_EMBEDDINGS: 'bedrock', MERIDIAN_EMBEDDING_DIMENSION: '512' }).embeddings)?.modelId;
 * // 'amazon.titan-embed-text-v2:0-512'
 */
export function embedderFrom(embeddings: Environment['embeddings']): Embedder | undefined {
  if (embeddings.choice === 'local') return undefined;
  const { dimension, endpoint } = embeddings;
  const titan = once(async () => {
    const { createTitanClient, TitanEmbedder } = await import('../adapters/bedrock/titan-embedder.js');
    return new TitanEmbedder({ client: createTitanClient(endpoint ? { endpoint } : {}), dimension });
  });
  return {
    modelId: titanEmbedderModelId(dimension),
    dimension,
    embed: async (texts) => (await titan()).embed(texts),
  };
}
