/**
 * Tools whose one call costs far more than a usual one — a booking's workflow, a snapshot's
 * encryption and copy, a cloud sync's transfer, a scan of a folder or of every event in a range —
 * and so spend the stricter `expensive` budget as well as the `requests` one
 * (core/limits/request-limiter.ts). test/mcp/expensive-tools.test.ts keeps every name a real tool.
 */
export const EXPENSIVE_TOOLS: ReadonlySet<string> = new Set([
  'book_slot',
  'create_snapshot',
  'restore_snapshot',
  'sync_to_cloud',
  'sync_from_cloud',
  'initialize_context',
  'get_timesheet',
  'preview_rule',
]);
