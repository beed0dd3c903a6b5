/**
 * The memory service and the projects it checks against, one chunk in a bundle (see
 * booking.ts): all a first list_branches loads of the memory, with no search,
 * snapshot or grounding code (memory-search.ts, memory-insights.ts; snapshots import core directly).
 */
export { MemoryService } from '../../core/memory/memory-service.js';
export { ProjectStore } from '../../core/rules/project-store.js';
