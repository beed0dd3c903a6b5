import { type Toolsets, toolCatalogue } from '../tool-catalogue.js';
import { adjustTimestampTool } from './adjust-timestamp.js';
import { checkAvailabilityTool } from './availability/check-availability.js';
import { findFreeSlotsTool } from './availability/find-free-slots.js';
import { getAvailabilityTool } from './availability/get-availability.js';
import { bookSlotTool } from './booking/book-slot.js';
import { batchUpdateEventsTool } from './calendar/batch-update-events.js';
import { createCalendarTool } from './calendar/create-calendar.js';
import { createEventTool } from './calendar/create-event.js';
import { deleteEventTool } from './calendar/delete-event.js';
import { findFreeTimeTool } from './calendar/find-free-time.js';
import { getEventTool } from './calendar/get-event.js';
import { listCalendarsTool } from './calendar/list-calendars.js';
import { listEventsTool } from './calendar/list-events.js';
import { manageAttendeesTool } from './calendar/manage-attendees.js';
import { quickAddEventTool } from './calendar/quick-add-event.js';
import { respondToEventTool } from './calendar/respond-to-event.js';
import { updateEventTool } from './calendar/update-event.js';
import { computeDurationTool } from './compute-duration.js';
import { convertTimezoneTool } from './convert-timezone.js';
import { expandRruleTool } from './expand-rrule.js';
import { getTemporalContextTool } from './get-temporal-context.js';
import { acceptSuggestionsTool } from './memory/accept-suggestions.js';
import { createBranchTool } from './memory/create-branch.js';
import { createSnapshotTool } from './memory/create-snapshot.js';
import { getActiveSummaryTool } from './memory/get-active-summary.js';
import { getAutomationStatusTool } from './memory/get-automation-status.js';
import { getContextGraphInfoTool } from './memory/get-context-graph-info.js';
import { initializeContextTool } from './memory/initialize-context.js';
import { linkGitBranchTool } from './memory/link-git-branch.js';
import { listBranchesTool } from './memory/list-branches.js';
import { listSnapshotsTool } from './memory/list-snapshots.js';
import { loadContextTool } from './memory/load-context.js';
import { rejectSuggestionsTool } from './memory/reject-suggestions.js';
import { restoreSnapshotTool } from './memory/restore-snapshot.js';
import { searchContextTool } from './memory/search-context.js';
import { suggestContextsTool } from './memory/suggest-contexts.js';
import { syncFromCloudTool } from './memory/sync-from-cloud.js';
import { syncToCloudTool } from './memory/sync-to-cloud.js';
import { updateMemoryTool } from './memory/update-memory.js';
import { verifyResponseTool } from './memory/verify-response.js';
import { resolveDatetimeTool } from './resolve-datetime.js';
import { classifyEventTool } from './rules/classify-event.js';
import { createClassificationRuleTool } from './rules/create-classification-rule.js';
import { createProjectTool } from './rules/create-project.js';
import { createRuleTool } from './rules/create-rule.js';
import { createRuleFromDescriptionTool } from './rules/create-rule-from-description.js';
import { deleteRuleTool } from './rules/delete-rule.js';
import { explainClassificationTool } from './rules/explain-classification.js';
import { getRuleSuggestionsTool } from './rules/get-rule-suggestions.js';
import { getTimesheetTool } from './rules/get-timesheet.js';
import { listProjectsTool } from './rules/list-projects.js';
import { listRulesTool } from './rules/list-rules.js';
import { previewRuleTool } from './rules/preview-rule.js';
import { updateProjectTool } from './rules/update-project.js';
import { updateRuleTool } from './rules/update-rule.js';

/**
 * Every tool Meridian serves, by toolset, in the order tools/list shows them. A connection may
 * enable a subset (lambdas/mcp/toolsets.ts); adding a toolset is one line here.
 */
export const TOOLSETS = {
  time: [
    getTemporalContextTool,
    resolveDatetimeTool,
    convertTimezoneTool,
    computeDurationTool,
    adjustTimestampTool,
    expandRruleTool,
  ],
  calendar: [
    listCalendarsTool,
    listEventsTool,
    getEventTool,
    createEventTool,
    updateEventTool,
    batchUpdateEventsTool,
    deleteEventTool,
    quickAddEventTool,
    createCalendarTool,
    manageAttendeesTool,
    respondToEventTool,
  ],
  availability: [
    findFreeTimeTool,
    findFreeSlotsTool,
    checkAvailabilityTool,
    getAvailabilityTool,
    bookSlotTool,
  ],
  rules: [
    listProjectsTool,
    createProjectTool,
    updateProjectTool,
    createRuleTool,
    createClassificationRuleTool,
    updateRuleTool,
    deleteRuleTool,
    listRulesTool,
    previewRuleTool,
    classifyEventTool,
    explainClassificationTool,
    getTimesheetTool,
    getRuleSuggestionsTool,
    createRuleFromDescriptionTool,
  ],
  memory: [
    initializeContextTool,
    createBranchTool,
    listBranchesTool,
    updateMemoryTool,
    getActiveSummaryTool,
    loadContextTool,
    linkGitBranchTool,
    searchContextTool,
    verifyResponseTool,
    suggestContextsTool,
    acceptSuggestionsTool,
    rejectSuggestionsTool,
    getAutomationStatusTool,
    getContextGraphInfoTool,
    createSnapshotTool,
    restoreSnapshotTool,
    listSnapshotsTool,
    syncToCloudTool,
    syncFromCloudTool,
  ],
} satisfies Toolsets;

/** The toolset names, for parsing a selection (`--toolsets time,calendar`). */
export const TOOLSET_NAMES: readonly string[] = Object.keys(TOOLSETS);

/** Every tool, loaded: the catalogue of runtimes that import their tools up front. */
export const allToolsCatalogue = toolCatalogue(TOOLSETS);
