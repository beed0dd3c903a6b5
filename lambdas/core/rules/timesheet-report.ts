import { ruleEventCounts } from './counted-event.js';
import type { RuleContext } from './rule-context.js';
import type { RuleEvent } from './rule-events.js';
import {
  attributeTime,
  type GroupBy,
  summarise,
  type TimesheetEntry,
  type TimesheetGroup,
} from './timesheet.js';

export interface UnclassifiedCluster {
  /** The title the events share (normalised). */
  label: string;
  events: number;
  minutes: number;
  sample_event_ids: string[];
}

export interface TimesheetReport {
  window: { start: string; end: string };
  group_by: GroupBy;
  time_zone: string;
  groups: TimesheetGroup[];
  totals: { raw_minutes: number; rounded_minutes: number; billable_minutes: number; events: number };
  unclassified: { minutes: number; events: number; clusters: UnclassifiedCluster[] };
}

const CLUSTERS = 5;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Titles that differ only in numbers, case or punctuation ("Sync #3", "sync 4") are one cluster. */
export function clusterLabel(summary: string): string {
  return (
    summary
      .toLowerCase()
      .replace(/[^\p{L}\s]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim() || '(untitled)'
  );
}

/**
 * A timesheet: counted events (not declined, cancelled or transparent; all-day only when asked)
 * classified, their time attributed by the overlap policy, then grouped. `project_ids` keeps only
 * those projects' time; the unclassified section is always over every counted event. With
 * `visibleProject`, time of projects the caller may not read shows as one group (never billable,
 * never rounded: its projects' settings are not the caller's to see).
 */
export function buildTimesheet(
  context: RuleContext,
  events: readonly RuleEvent[],
  options: {
    window: { start: string; end: string };
    groupBy: GroupBy;
    zone: string;
    includeAllDay: boolean;
    projectIds?: readonly string[] | undefined;
    windowMs: { from: number; to: number };
    /** How a project id shows to the caller: time of projects it may not read folds into one id. */
    visibleProject?: ((projectId: string) => string) | undefined;
  },
): TimesheetReport {
  const visible = (projectId: string | null) =>
    projectId === null || !options.visibleProject ? projectId : options.visibleProject(projectId);
  const entries: TimesheetEntry[] = events
    .filter((event) => ruleEventCounts(event, options.includeAllDay))
    .map((event) => ({
      event_id: event.view.id,
      calendar_id: event.calendar.calendar_id,
      summary: event.view.summary,
      project_id: visible(context.classify(event).project_id),
      // Only the part inside the window counts.
      startMs: Math.max(event.startMs, options.windowMs.from),
      endMs: Math.min(event.endMs, options.windowMs.to),
    }))
    .filter((entry) => entry.endMs > entry.startMs);
  const wanted = options.projectIds ? new Set(options.projectIds) : undefined;
  const shown = wanted ? entries.filter((e) => e.project_id !== null && wanted.has(e.project_id)) : entries;
  const groups = summarise(shown, {
    groupBy: options.groupBy,
    zone: options.zone,
    projects: context.projects,
  });
  return {
    window: options.window,
    group_by: options.groupBy,
    time_zone: options.zone,
    groups,
    totals: {
      raw_minutes: round2(groups.reduce((s, g) => s + g.raw_minutes, 0)),
      rounded_minutes: round2(groups.reduce((s, g) => s + g.rounded_minutes, 0)),
      billable_minutes: round2(groups.reduce((s, g) => s + g.billable_minutes, 0)),
      events: new Set(shown.map((e) => `${e.calendar_id} ${e.event_id}`)).size,
    },
    unclassified: unclassifiedTime(entries),
  };
}

function unclassifiedTime(entries: readonly TimesheetEntry[]): TimesheetReport['unclassified'] {
  const clusters = new Map<string, { ids: Set<string>; ms: number }>();
  let total = 0;
  for (const segment of attributeTime(entries)) {
    if (segment.entry.project_id !== null) continue;
    const ms = segment.endMs - segment.startMs;
    total += ms;
    const label = clusterLabel(segment.entry.summary);
    const cluster = clusters.get(label) ?? { ids: new Set<string>(), ms: 0 };
    cluster.ids.add(segment.entry.event_id);
    cluster.ms += ms;
    clusters.set(label, cluster);
  }
  return {
    minutes: round2(total / 60_000),
    events: entries.filter((e) => e.project_id === null).length,
    clusters: [...clusters.entries()]
      .sort((a, b) => b[1].ms - a[1].ms || a[0].localeCompare(b[0]))
      .slice(0, CLUSTERS)
      .map(([label, c]) => ({
        label,
        events: c.ids.size,
        minutes: round2(c.ms / 60_000),
        sample_event_ids: [...c.ids].slice(0, 3),
      })),
  };
}
