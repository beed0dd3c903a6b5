/**
 * Turns texts into vectors for semantic search. The local embedder (core/memory/search) runs
 * everywhere and downloads nothing; a hosted model may stand in on AWS.
 *
 * Vectors from two models are not comparable, so every vector is labelled with `modelId` and
 * `dimension`: an index built by another model is rebuilt, never mixed with this one's vectors.
 */
export interface Embedder {
  /** Names the model and its version; changes whenever its vectors would change. */
  readonly modelId: string;
  /** Length of every vector `embed` answers. */
  readonly dimension: number;
  /**
   * One L2-normalised vector per text, in order (so cosine similarity is a dot product).
   *
   * @example
   * const [vector] = await embedder.embed(['retry the S3 upload on 503']);
   */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}
