import {
  isTitanDimension,
  TITAN_EMBED_V2_DEFAULT_DIMENSION,
  titanEmbedderModelId,
} from '../adapters/bedrock/titan-model.js';
import { once } from '../core/once.js';
import type { Embedder } from '../core/ports/index.js';
import { BEDROCK_ENDPOINT_ENV, EMBEDDING_DIMENSION_ENV, EMBEDDINGS_ENV } from './environment-names.js';

/** The embedders a deployment can choose with MERIDIAN_EMBEDDINGS. */
export const EMBEDDINGS_CHOICES = ['local', 'bedrock'] as const;
export type EmbeddingsChoice = (typeof EMBEDDINGS_CHOICES)[number];

/**
 * The embedder MERIDIAN_EMBEDDINGS names, or undefined for `local` (or unset): the composition
 * then uses the local embedder. `bedrock` is Titan v2 at MERIDIAN_EMBEDDING_DIMENSION (1024 by
 * default). Its model id and dimension are known at once (an index is looked up by them), while
 * the Bedrock client loads on the first text to embed: a cold start that never searches memory
 * never loads it. A bad value fails the cold start, naming the variable and what it accepts.
 *
 * @example
 * embedderFrom({ MERIDIAN_EMBEDDINGS: 'bedrock', MERIDIAN_EMBEDDING_DIMENSION: '512' })?.modelId;
 * // 'amazon.titan-embed-text-v2:0-512'
 */
export function embedderFrom(env: NodeJS.ProcessEnv): Embedder | undefined {
  const choice = env[EMBEDDINGS_ENV]?.trim() || 'local';
  if (!(EMBEDDINGS_CHOICES as readonly string[]).includes(choice)) {
    throw new Error(`${EMBEDDINGS_ENV} must be one of ${EMBEDDINGS_CHOICES.join(', ')} (got "${choice}").`);
  }
  if (choice === 'local') return undefined;
  const rawDimension = env[EMBEDDING_DIMENSION_ENV]?.trim();
  const dimension = rawDimension ? Number(rawDimension) : TITAN_EMBED_V2_DEFAULT_DIMENSION;
  if (!isTitanDimension(dimension)) {
    throw new Error(
      `${EMBEDDING_DIMENSION_ENV} must be 1024, 512 or 256 for bedrock (got "${rawDimension}").`,
    );
  }
  const endpoint = env[BEDROCK_ENDPOINT_ENV]?.trim();
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
