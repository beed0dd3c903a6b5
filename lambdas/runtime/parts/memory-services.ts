/** The memory tools' services, one chunk in a bundle (see calendar-services.ts). */
export { MemoryInsights } from '../../core/memory/memory-insights.js';
export { MemoryService } from '../../core/memory/memory-service.js';
export { localEmbedder } from '../../core/memory/search/local-embedder.js';
export { MemorySearch } from '../../core/memory/search/memory-search.js';
export { ProjectMemorySearch } from '../../core/memory/search/project-memory-search.js';
export { MemorySnapshots } from '../../core/memory/snapshots/memory-snapshots.js';
export { SuggestionHistory } from '../../core/memory/suggestions/suggestion-history.js';
export { ProjectStore } from '../../core/rules/project-store.js';
