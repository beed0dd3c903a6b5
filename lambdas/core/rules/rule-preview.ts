import { type Untrusted, untrustedField } from '../firewall/untrusted-marks.js';
import { screenProviderEvent } from '../firewall/untrusted-text.js';
import { intlOffsetMs } from '../time/intl-offset.js';
import { formatWithOffset } from '../time/recurrence/wall-clock-text.js';
import type { CompiledRule } from './classify.js';
import { ruleEventCounts } from './counted-event.js';
import { conditionHolds, matchesQuery } from './evaluate-query.js';
import { printQuery } from './print-query.js';
import { conditionsOf, type QueryNode } from './query-ast.js';
import type { RuleContext } from './rule-context.js';
import type { RuleEvent } from './rule-events.js';
import { wouldWin } from './rule-explain.js';

export interface PreviewMatch {
  event_id: string;
  calendar_id: string;
  summary: string;
  start: string;
  end: string;
  /** The query's conditions (canonical text) that hold for this event. */
  matched_conditions: string[];
  /** The firewall rules the event's text trips, as list_events flags it; absent when none. */
  untrusted?: Untrusted;
}

/** Events moving between projects if the rule were saved; `null` is unclassified. */
export interface ProjectMove {
  from_project_id: string | null;
  to_project_id: string;
  events: number;
  minutes: number;
}

export interface Preview {
  query: string;
  matches: PreviewMatch[];
  total_matched: number;
  minutes_matched: number;
  /** Matching events left out as get_timesheet leaves them (cancelled, declined, free). */
  not_counted: number;
  /** Present when a project was given: what saving the rule would change. */
  change?: { moves: ProjectMove[]; events_moved: number; unchanged: number };
}

const minutesOf = (event: RuleEvent) => (event.view.all_day ? 0 : (event.endMs - event.startMs) / 60_000);

/**
 * What an unsaved query matches in the given events and, with a project, which events would move
 * from which project to it: an event moves when the new rule (newest, with its weight) would beat
 * its current winner and it is not pinned. All-day events match but add no minutes; events the
 * timesheet never counts (cancelled, declined, free) are left out and counted in `not_counted`.
 * Match times are local in `zone` when given (all-day events keep their dates).
 */
export function previewQuery(
  tree: QueryNode,
  events: readonly RuleEvent[],
  options: {
    limit: number;
    context: RuleContext;
    candidate?: CompiledRule | undefined;
    /** An IANA zone (already checked) to give match times in; else each event's own zone. */
    zone?: string | undefined;
  },
): Preview {
  const local = (event: RuleEvent, ms: number, own: string) =>
    options.zone && !event.view.all_day ? formatWithOffset(ms, intlOffsetMs(options.zone, ms)) : own;
  const conditions = conditionsOf(tree);
  const matching = events.filter((event) => matchesQuery(tree, event.facts));
  // All-day events stay (they match, with no minutes): include_all_day is the timesheet's choice.
  const matched = matching
    .filter((event) => ruleEventCounts(event, true))
    .sort((a, b) => a.startMs - b.startMs || a.view.id.localeCompare(b.view.id));
  const moves = new Map<string, ProjectMove>();
  let unchanged = 0;
  for (const event of options.candidate ? matched : []) {
    const current = options.context.classify(event);
    const candidate = options.candidate!;
    const moving =
      current.source !== 'pin' &&
      current.project_id !== candidate.project_id &&
      wouldWin(candidate, current.source === 'rule' ? current.rule : undefined);
    if (!moving) {
      unchanged++;
      continue;
    }
    const key = `${current.project_id}`;
    const move = moves.get(key) ?? {
      from_project_id: current.project_id,
      to_project_id: candidate.project_id,
      events: 0,
      minutes: 0,
    };
    move.events++;
    move.minutes += minutesOf(event);
    moves.set(key, move);
  }
  return {
    query: printQuery(tree),
    matches: matched.slice(0, options.limit).map((event) => ({
      event_id: event.view.id,
      calendar_id: event.calendar.calendar_id,
      summary: event.view.summary,
      start: local(event, event.startMs, event.view.start_local),
      end: local(event, event.endMs, event.view.end_local),
      matched_conditions: conditions.filter((c) => conditionHolds(c, event.facts)).map((c) => printQuery(c)),
      ...untrustedField(marksOf(event)),
    })),
    total_matched: matched.length,
    minutes_matched: round2(matched.reduce((sum, event) => sum + minutesOf(event), 0)),
    not_counted: matching.length - matched.length,
    ...(options.candidate
      ? {
          change: {
            moves: [...moves.values()]
              .map((m) => ({ ...m, minutes: round2(m.minutes) }))
              .sort((a, b) => b.events - a.events),
            events_moved: [...moves.values()].reduce((sum, m) => sum + m.events, 0),
            unchanged,
          },
        }
      : {}),
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The firewall rules a returned match's text trips. A connected calendar's events are written by
 * other clients, past the write-time check; a rules read takes them from the shadow (flagged by
 * the sync) or live from the provider (unflagged: screening every event of a window would cost
 * more than classifying it), so the few matches shown are screened here. Native events were
 * checked when written.
 */
function marksOf(event: RuleEvent): Untrusted | undefined {
  return event.calendar.provider === 'native'
    ? event.view.untrusted
    : screenProviderEvent(event.view).untrusted;
}
