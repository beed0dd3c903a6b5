import { OTHER_PROJECTS, type ProjectRights } from './project-access.js';
import type { Explanation, RuleOutcome } from './rule-explain.js';
import type { Preview, ProjectMove } from './rule-preview.js';
import type { Rule } from './rule-store.js';
import type { RuleSuggestion } from './rule-suggestions.js';

/*
 * What a principal sees of the projects it may not read: classification itself uses every rule
 * and pin (a key's view must not change the answer), but the results name those projects,
 * their rules and queries only as "other".
 */

/** Preview moves out of projects the principal may not read are shown as one "other" source. */
export function hideMovesFrom(preview: Preview, rights: ProjectRights): Preview {
  if (!preview.change) return preview;
  const merged = new Map<string | null, ProjectMove>();
  for (const move of preview.change.moves) {
    const from = move.from_project_id === null ? null : rights.visible(move.from_project_id);
    const seen = merged.get(from);
    merged.set(
      from,
      seen
        ? { ...seen, events: seen.events + move.events, minutes: seen.minutes + move.minutes }
        : { ...move, from_project_id: from },
    );
  }
  return { ...preview, change: { ...preview.change, moves: [...merged.values()] } };
}

/** An explanation without the queries, ids or projects of rules and pins the principal may not read. */
export function hideUnreadable(explanation: Explanation, rights: ProjectRights): Explanation {
  const hide = <T extends RuleOutcome>(outcome: T): T =>
    rights.allows(outcome.project_id, 'read')
      ? outcome
      : { ...outcome, rule_id: HIDDEN, project_id: OTHER_PROJECTS, query: HIDDEN };
  // Why a rule lost names the winning rule or the pin's project: not when that is hidden.
  const decidedUnseen = explanation.project_id !== null && !rights.allows(explanation.project_id, 'read');
  return {
    ...explanation,
    project_id: explanation.project_id === null ? null : rights.visible(explanation.project_id),
    ...(explanation.winner ? { winner: hide(explanation.winner) } : {}),
    others: explanation.others.map((other) => ({
      ...hide(other),
      ...(decidedUnseen ? { lost_because: 'outranked by a pin or rule of a project you cannot read' } : {}),
    })),
  };
}

const HIDDEN = '(hidden: no read access to its project)';

/** Suggestions without corrections into unreadable projects or exceptions to their rules. */
export function visibleSuggestions(
  suggestions: readonly RuleSuggestion[],
  rules: readonly Rule[],
  rights: ProjectRights,
): RuleSuggestion[] {
  const projectOfRule = new Map(rules.map((rule) => [rule.rule_id, rule.project_id]));
  // Corrections into projects the principal may not read are not its to make; an exception to a
  // rule it may not read would show that rule's query.
  return suggestions.flatMap(({ exception, ...suggestion }) => {
    if (suggestion.project_id && !rights.allows(suggestion.project_id, 'read')) return [];
    const exceptionProject = exception ? projectOfRule.get(exception.rule_id) : undefined;
    return [
      {
        ...suggestion,
        ...(exception && exceptionProject && rights.allows(exceptionProject, 'read') ? { exception } : {}),
        ...(suggestion.precision
          ? {
              precision: {
                ...suggestion.precision,
                top_project_id: rights.visible(suggestion.precision.top_project_id),
              },
            }
          : {}),
      },
    ];
  });
}
