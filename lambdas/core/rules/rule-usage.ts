import { ruleEventCounts } from './counted-event.js';
import type { RuleContext } from './rule-context.js';
import type { EventWindow, RuleEvent } from './rule-events.js';
import type { Rule } from './rule-store.js';

export interface RuleWarning {
  code: 'NEVER_MATCHED' | 'ALWAYS_OUTRANKED';
  message: string;
}

export type RuleWithUsage = Rule & {
  /** Events the rule matched in the window, counted as get_timesheet counts (not cancelled, declined or free). */
  events_matched: number;
  /** Of those, the events that start after now. */
  events_upcoming: number;
  /** Of those, the events it decided (not outranked by another rule or a pin). */
  events_won: number;
  warnings: RuleWarning[];
};

/**
 * Each rule with how often it matched (and how many of those are upcoming) and won over the
 * window's events, and warnings: it matched nothing in the window (a typo, a stale domain), or
 * every event it matched went to another rule (it does nothing).
 */
export function rulesWithUsage(
  context: RuleContext,
  events: readonly RuleEvent[],
  scope: { window: EventWindow; now: number },
  isReadable: (projectId: string) => boolean = () => true,
): RuleWithUsage[] {
  const projectOf = new Map(context.rules.map((rule) => [rule.rule_id, rule.project_id]));
  const matched = new Map<string, number>();
  const upcoming = new Map<string, number>();
  const won = new Map<string, number>();
  const beatenBy = new Map<string, Set<string>>();
  // One definition of what counts (counted-event.ts): a rule matching only cancelled events does nothing.
  for (const event of events.filter((e) => ruleEventCounts(e, true))) {
    const ranked = context.classifierFor(event.calendar.calendar_id).matches(event.facts);
    const pinned = context.pinOf(event) !== undefined;
    ranked.forEach((rule, i) => {
      matched.set(rule.rule_id, (matched.get(rule.rule_id) ?? 0) + 1);
      if (event.startMs > scope.now) upcoming.set(rule.rule_id, (upcoming.get(rule.rule_id) ?? 0) + 1);
      if (i === 0 && !pinned) won.set(rule.rule_id, (won.get(rule.rule_id) ?? 0) + 1);
      else if (i > 0) {
        const set = beatenBy.get(rule.rule_id) ?? new Set<string>();
        set.add(ranked[0]!.rule_id);
        beatenBy.set(rule.rule_id, set);
      }
    });
  }
  return context.rules.map((rule) => {
    const hits = matched.get(rule.rule_id) ?? 0;
    const wins = won.get(rule.rule_id) ?? 0;
    const warnings: RuleWarning[] = [];
    if (hits === 0)
      warnings.push({
        code: 'NEVER_MATCHED',
        message: `Matched no counted event from ${iso(scope.window.from)} to ${iso(scope.window.to)}, past or upcoming: check the query with preview_rule.`,
      });
    else if (wins === 0 && beatenBy.has(rule.rule_id))
      warnings.push({
        code: 'ALWAYS_OUTRANKED',
        message: `Every event it matched went to another rule (${winnersNamed(beatenBy.get(rule.rule_id)!, (id) => isReadable(projectOf.get(id) ?? ''))}): raise its weight or delete it.`,
      });
    return {
      ...rule,
      events_matched: hits,
      events_upcoming: upcoming.get(rule.rule_id) ?? 0,
      events_won: wins,
      warnings,
    };
  });
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The winning rules' ids, except those of projects the caller may not read: those are only counted. */
function winnersNamed(ruleIds: ReadonlySet<string>, visible: (ruleId: string) => boolean): string {
  const shown = [...ruleIds].filter(visible);
  const hidden = ruleIds.size - shown.length;
  return [...shown, ...(hidden > 0 ? [`${hidden} of projects you cannot read`] : [])].join(', ');
}
