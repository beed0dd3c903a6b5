/**
 * Every metric Meridian publishes, in one place: the code that publishes them and the stack's
 * alarms and dashboard (lib/constructs/operations-alarms.ts) read the same names.
 */
export const METRICS_NAMESPACE = 'Meridian';

export const METRIC = {
  /** Per tool and outcome (`ok`, the error code, or `FAULT`): one per tools/call. */
  toolCalls: 'ToolCalls',
  /** Per tool and outcome: milliseconds from the hooks' start to the outcome. */
  toolLatency: 'ToolLatency',
  /** Service-wide (only the `service` dimension, so alarms can read it): one per tools/call. */
  calls: 'Calls',
  /** Service-wide: 1 for a call that failed as a fault (-32603, the server's own failure), else 0. */
  faults: 'Faults',
  /** Service-wide: one per request a per-caller rate limit refused (HTTP 429). */
  limitRefusals: 'LimitRefusals',
  /** Per sync run: calendars synced or found unchanged. */
  syncedCalendars: 'SyncedCalendars',
  /** Per sync run: calendars whose sync failed (the staleness alarm's input). */
  syncFailedCalendars: 'SyncFailedCalendars',
  /** Per audit export run: days whose chain did not verify (exported as found; the alarm's input). */
  auditExportFailures: 'AuditExportFailures',
} as const;

/** The `service` dimension of each function that publishes (Powertools adds it to every line). */
export const METRIC_SERVICE = {
  mcp: 'meridian',
  sync: 'meridian-sync',
  auditExport: 'meridian-audit-export',
} as const;
