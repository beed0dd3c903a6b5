/**
 * Amazon Titan Text Embeddings v2, named once: the adapter invokes it, the runtime labels the
 * vectors with it before the SDK loads, and the CDK stack grants `bedrock:InvokeModel` on exactly
 * this foundation model. Imports nothing, so none of them pays for the Bedrock client.
 */

/** The foundation model the Bedrock embedder invokes. */
export const TITAN_EMBED_V2_MODEL_ID = 'amazon.titan-embed-text-v2:0';

/** The vector lengths Titan v2 offers; smaller ones cost less storage and scan time. */
export const TITAN_EMBED_V2_DIMENSIONS = [1024, 512, 256] as const;
export type TitanDimension = (typeof TITAN_EMBED_V2_DIMENSIONS)[number];

/** Titan v2's default length, the one with the best retrieval quality. */
export const TITAN_EMBED_V2_DEFAULT_DIMENSION: TitanDimension = 1024;

/**
 * The model id a vector carries: the dimension is part of it, because Titan's 512-dimension
 * vectors are not a prefix of its 1024-dimension ones and must never share an index.
 *
 * @example
 * titanEmbedderModelId(512); // 'amazon.titan-embed-text-v2:0-512'
 */
export function titanEmbedderModelId(dimension: TitanDimension): string {
  return `${TITAN_EMBED_V2_MODEL_ID}-${dimension}`;
}

/** True when `value` is a length Titan v2 can answer. */
export function isTitanDimension(value: number): value is TitanDimension {
  return (TITAN_EMBED_V2_DIMENSIONS as readonly number[]).includes(value);
}
