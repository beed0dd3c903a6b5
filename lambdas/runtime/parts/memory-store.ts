/** The memory store and its compressor, one chunk: all the idle-compression sweep loads. */
export { nodeGzip } from '../../adapters/compression/node-gzip.js';
export { MemoryStore } from '../../core/memory/store/memory-store.js';
