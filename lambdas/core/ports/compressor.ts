/**
 * Byte compression for memory contexts that went idle (their body is kept gzipped beside the
 * summary). A port so that core/ stays free of node:zlib: `adapters/compression/node-gzip.ts`
 * implements it in both runtimes.
 */
export interface Compressor {
  /** gzip of `bytes`. */
  compress(bytes: Uint8Array): Promise<Uint8Array>;
  /** The bytes `compress` was given; throws on anything that is not its output. */
  decompress(bytes: Uint8Array): Promise<Uint8Array>;
}
