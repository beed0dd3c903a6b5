import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { Compressor } from '../../core/ports/index.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** The Compressor port on node:zlib's gzip (both runtimes). */
export const nodeGzip: Compressor = {
  compress: async (bytes) => new Uint8Array(await gzipAsync(bytes)),
  decompress: async (bytes) => new Uint8Array(await gunzipAsync(bytes)),
};
