/**
 * The memory service and the projects it checks against, one chunk in a bundle (see
 * calendar-services.ts): all a first list_branches loads of the memory, with no search,
 * snapshot or grounding code (memory-search.ts, memory-snapshots.ts, memory-insights.ts).
 */
export { MemoryService } from '../../core/memory/memory-service.js';
export { ProjectStore } from '../../core/rules/project-store.js';
