import { type Untrusted, untrustedField } from '../firewall/untrusted-marks.js';
import { type CompiledRule, compareRules } from './classify.js';
import { whyNotCounted } from './counted-event.js';
import type { RuleContext } from './rule-context.js';
import type { RuleEvent } from './rule-events.js';

export interface RuleOutcome {
  rule_id: string;
  project_id: string;
  query: string;
  weight: number;
  conditions: number;
  created_at: string;
}

export interface Explanation {
  event_id: string;
  calendar_id: string;
  summary: string;
  /** The firewall rules the event's text trips (a connected calendar's, as get_event flags it). */
  untrusted?: Untrusted;
  project_id: string | null;
  decided_by: 'pin' | 'rule' | 'none';
  /** Whether get_timesheet counts the event's time by default (all-day only with include_all_day). */
  counts: boolean;
  /** When it does not count: why. */
  not_counted_because?: string;
  pin?: { scope: 'event' | 'series'; target_id: string; pinned_at: string };
  winner?: RuleOutcome;
  /** Every other matching rule, with why it lost. */
  others: (RuleOutcome & { lost_because: string })[];
}

/** Why `loser` ranks below `winner`, in the conflict order: weight, conditions, age, id. */
export function whyLost(loser: CompiledRule, winner: CompiledRule): string {
  if (loser.weight !== winner.weight)
    return `lower weight (${loser.weight}) than rule ${winner.rule_id} (${winner.weight})`;
  if (loser.conditions !== winner.conditions)
    return `same weight, fewer conditions (${loser.conditions}) than rule ${winner.rule_id} (${winner.conditions})`;
  if (loser.created_at !== winner.created_at)
    return `same weight and conditions; rule ${winner.rule_id} is newer`;
  return `a full tie; rule ${winner.rule_id} comes first by id`;
}

/**
 * Explains one event's classification: the pin or the winning rule, and every other matching
 * rule with the reason it lost (a pin beats every rule).
 */
export function explainEvent(context: RuleContext, event: RuleEvent): Explanation {
  const ranked = context.classifierFor(event.calendar.calendar_id).matches(event.facts);
  const pin = context.pinOf(event);
  const outcome = (rule: CompiledRule): RuleOutcome => ({
    rule_id: rule.rule_id,
    project_id: rule.project_id,
    query: context.rules.find((r) => r.rule_id === rule.rule_id)?.query ?? '',
    weight: rule.weight,
    conditions: rule.conditions,
    created_at: rule.created_at,
  });
  const notCounted = whyNotCounted(event);
  const base = {
    event_id: event.view.id,
    calendar_id: event.calendar.calendar_id,
    summary: event.view.summary,
    // The view was read through get_event's path, which flags a connected calendar's text.
    ...untrustedField(event.view.untrusted),
    counts: notCounted === undefined,
    ...(notCounted ? { not_counted_because: notCounted } : {}),
  };
  if (pin) {
    return {
      ...base,
      project_id: pin.project_id,
      decided_by: 'pin',
      pin: { scope: pin.scope, target_id: pin.target_id, pinned_at: pin.pinned_at },
      others: ranked.map((rule) => ({
        ...outcome(rule),
        lost_because: `the ${pin.scope === 'series' ? 'series' : 'event'} is pinned to project ${pin.project_id} by hand; pins beat rules`,
      })),
    };
  }
  const [winner, ...losers] = ranked;
  if (!winner) return { ...base, project_id: null, decided_by: 'none', others: [] };
  return {
    ...base,
    project_id: winner.project_id,
    decided_by: 'rule',
    winner: outcome(winner),
    others: losers.map((rule) => ({ ...outcome(rule), lost_because: whyLost(rule, winner) })),
  };
}

/** Whether `candidate` would beat the current winner (for previews of an unsaved rule). */
export function wouldWin(candidate: CompiledRule, current: CompiledRule | undefined): boolean {
  return !current || compareRules(candidate, current) < 0;
}
