import type { ToolLoaders } from '../tool-catalogue.js';
import type { TOOLSETS } from './index.js';

/**
 * Every tool imported on its own, by toolset: in the Lambda bundle each is a chunk, so a first
 * tools/call compiles the called tool and what it imports, not its toolset's other tools. A
 * toolset's tools share little beyond what every call already loads (the slice's services,
 * luxon): a first list_calendars need not compile chrono-node and rrule for quick_add_event and
 * the series tools, a first list_projects not the timesheet's and the classifier's code. Typed
 * against TOOLSETS (a type-only import: nothing of index.ts is loaded) so a toolset cannot be
 * missed; test/handlers/mcp-http-bundle.test.ts checks that each toolset's tools are all here.
 */
export const TOOL_LOADERS: { [Name in keyof typeof TOOLSETS]: ToolLoaders } = {
  time: {
    get_temporal_context: async () => (await import('./get-temporal-context.js')).getTemporalContextTool,
    resolve_datetime: async () => (await import('./resolve-datetime.js')).resolveDatetimeTool,
    convert_timezone: async () => (await import('./convert-timezone.js')).convertTimezoneTool,
    compute_duration: async () => (await import('./compute-duration.js')).computeDurationTool,
    adjust_timestamp: async () => (await import('./adjust-timestamp.js')).adjustTimestampTool,
    expand_rrule: async () => (await import('./expand-rrule.js')).expandRruleTool,
  },
  calendar: {
    list_calendars: async () => (await import('./calendar/list-calendars.js')).listCalendarsTool,
    list_events: async () => (await import('./calendar/list-events.js')).listEventsTool,
    get_event: async () => (await import('./calendar/get-event.js')).getEventTool,
    create_event: async () => (await import('./calendar/create-event.js')).createEventTool,
    update_event: async () => (await import('./calendar/update-event.js')).updateEventTool,
    batch_update_events: async () =>
      (await import('./calendar/batch-update-events.js')).batchUpdateEventsTool,
    delete_event: async () => (await import('./calendar/delete-event.js')).deleteEventTool,
    quick_add_event: async () => (await import('./calendar/quick-add-event.js')).quickAddEventTool,
    create_calendar: async () => (await import('./calendar/create-calendar.js')).createCalendarTool,
    manage_attendees: async () => (await import('./calendar/manage-attendees.js')).manageAttendeesTool,
    respond_to_event: async () => (await import('./calendar/respond-to-event.js')).respondToEventTool,
  },
  availability: {
    find_free_time: async () => (await import('./calendar/find-free-time.js')).findFreeTimeTool,
    find_free_slots: async () => (await import('./availability/find-free-slots.js')).findFreeSlotsTool,
    check_availability: async () =>
      (await import('./availability/check-availability.js')).checkAvailabilityTool,
    get_availability: async () => (await import('./availability/get-availability.js')).getAvailabilityTool,
    book_slot: async () => (await import('./booking/book-slot.js')).bookSlotTool,
  },
  rules: {
    list_projects: async () => (await import('./rules/list-projects.js')).listProjectsTool,
    create_project: async () => (await import('./rules/create-project.js')).createProjectTool,
    update_project: async () => (await import('./rules/update-project.js')).updateProjectTool,
    create_rule: async () => (await import('./rules/create-rule.js')).createRuleTool,
    create_classification_rule: async () =>
      (await import('./rules/create-classification-rule.js')).createClassificationRuleTool,
    update_rule: async () => (await import('./rules/update-rule.js')).updateRuleTool,
    delete_rule: async () => (await import('./rules/delete-rule.js')).deleteRuleTool,
    list_rules: async () => (await import('./rules/list-rules.js')).listRulesTool,
    preview_rule: async () => (await import('./rules/preview-rule.js')).previewRuleTool,
    classify_event: async () => (await import('./rules/classify-event.js')).classifyEventTool,
    explain_classification: async () =>
      (await import('./rules/explain-classification.js')).explainClassificationTool,
    get_timesheet: async () => (await import('./rules/get-timesheet.js')).getTimesheetTool,
    get_rule_suggestions: async () =>
      (await import('./rules/get-rule-suggestions.js')).getRuleSuggestionsTool,
    create_rule_from_description: async () =>
      (await import('./rules/create-rule-from-description.js')).createRuleFromDescriptionTool,
  },
  memory: {
    initialize_context: async () => (await import('./memory/initialize-context.js')).initializeContextTool,
    create_branch: async () => (await import('./memory/create-branch.js')).createBranchTool,
    list_branches: async () => (await import('./memory/list-branches.js')).listBranchesTool,
    update_memory: async () => (await import('./memory/update-memory.js')).updateMemoryTool,
    get_active_summary: async () => (await import('./memory/get-active-summary.js')).getActiveSummaryTool,
    load_context: async () => (await import('./memory/load-context.js')).loadContextTool,
    link_git_branch: async () => (await import('./memory/link-git-branch.js')).linkGitBranchTool,
    search_context: async () => (await import('./memory/search-context.js')).searchContextTool,
    verify_response: async () => (await import('./memory/verify-response.js')).verifyResponseTool,
    suggest_contexts: async () => (await import('./memory/suggest-contexts.js')).suggestContextsTool,
    accept_suggestions: async () => (await import('./memory/accept-suggestions.js')).acceptSuggestionsTool,
    reject_suggestions: async () => (await import('./memory/reject-suggestions.js')).rejectSuggestionsTool,
    get_automation_status: async () =>
      (await import('./memory/get-automation-status.js')).getAutomationStatusTool,
    get_context_graph_info: async () =>
      (await import('./memory/get-context-graph-info.js')).getContextGraphInfoTool,
    create_snapshot: async () => (await import('./memory/create-snapshot.js')).createSnapshotTool,
    restore_snapshot: async () => (await import('./memory/restore-snapshot.js')).restoreSnapshotTool,
    list_snapshots: async () => (await import('./memory/list-snapshots.js')).listSnapshotsTool,
    sync_to_cloud: async () => (await import('./memory/sync-to-cloud.js')).syncToCloudTool,
    sync_from_cloud: async () => (await import('./memory/sync-from-cloud.js')).syncFromCloudTool,
  },
};
