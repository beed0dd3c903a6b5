import type { ClassifiableEvent } from './classifiable-event.js';
import { matchesQuery } from './evaluate-query.js';
import { parseQuery } from './parse-query.js';
import { conditionsOf, type QueryNode } from './query-ast.js';
import { RuleIndex } from './rule-index.js';

/** A saved rule, compiled: its tree parsed once. */
export interface CompiledRule {
  readonly rule_id: string;
  readonly project_id: string;
  readonly tree: QueryNode;
  readonly weight: number;
  /** How many conditions the query has: the more specific rule wins a tie on weight. */
  readonly conditions: number;
  /** RFC 3339; a newer rule wins a tie. */
  readonly created_at: string;
}

/**
 * Parses a saved rule once for classification.
 *
 * @example
 * compileRule({ rule_id: 'r1', project_id: 'p1', query: 'domain:acme.com', weight: 1, created_at: '2026-11-01T00:00:00Z' });
 */
export function compileRule(rule: {
  rule_id: string;
  project_id: string;
  query: string;
  weight: number;
  created_at: string;
}): CompiledRule {
  const tree = parseQuery(rule.query);
  return {
    rule_id: rule.rule_id,
    project_id: rule.project_id,
    tree,
    weight: rule.weight,
    conditions: conditionsOf(tree).length,
    created_at: rule.created_at,
  };
}

export type Classification =
  | { readonly project_id: string; readonly source: 'pin' }
  | { readonly project_id: string; readonly source: 'rule'; readonly rule: CompiledRule }
  | { readonly project_id: null; readonly source: 'none' };

/**
 * Orders matching rules from winner to loser: higher weight, then more conditions (the more
 * specific rule), then the newer rule, then the rule id so that the order never depends on input order.
 */
export function compareRules(a: CompiledRule, b: CompiledRule): number {
  return (
    b.weight - a.weight ||
    b.conditions - a.conditions ||
    b.created_at.localeCompare(a.created_at) ||
    a.rule_id.localeCompare(b.rule_id)
  );
}

/** Every rule that matches, winner first (for explanations and for "always outranked" warnings). */
export function rankMatches(rules: readonly CompiledRule[], event: ClassifiableEvent): CompiledRule[] {
  return rules.filter((rule) => matchesQuery(rule.tree, event)).sort(compareRules);
}

/**
 * Classifies events against many rules: an index picks the candidate rules from an event's
 * domains, addresses and title, so most rules are never evaluated. A pin (an event or a series
 * classified by hand) beats every rule.
 *
 * @example
 * const classifier = new Classifier(rules);
 * classifier.classify(event, pinnedProjectId);
 */
export class Classifier {
  private readonly index: RuleIndex<CompiledRule>;

  constructor(readonly rules: readonly CompiledRule[]) {
    this.index = new RuleIndex(rules, (rule) => rule.tree);
  }

  /** The matching rules, winner first. */
  matches(event: ClassifiableEvent): CompiledRule[] {
    return rankMatches(this.index.candidates(event), event);
  }

  classify(event: ClassifiableEvent, pinnedProjectId?: string): Classification {
    if (pinnedProjectId) return { project_id: pinnedProjectId, source: 'pin' };
    let winner: CompiledRule | undefined;
    for (const rule of this.index.candidates(event)) {
      if ((!winner || compareRules(rule, winner) < 0) && matchesQuery(rule.tree, event)) winner = rule;
    }
    return winner
      ? { project_id: winner.project_id, source: 'rule', rule: winner }
      : { project_id: null, source: 'none' };
  }
}
