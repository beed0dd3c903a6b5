/** Grounding, suggestions and the context graph, one chunk in a bundle. */
export { MemoryInsights } from '../../core/memory/memory-insights.js';
export { SuggestionHistory } from '../../core/memory/suggestions/suggestion-history.js';
