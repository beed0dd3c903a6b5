/** search_context's index and its default embedder, one chunk in a bundle (minisearch with it). */
export { localEmbedder } from '../../core/memory/search/local-embedder.js';
export { MemorySearch } from '../../core/memory/search/memory-search.js';
export { ProjectMemorySearch } from '../../core/memory/search/project-memory-search.js';
