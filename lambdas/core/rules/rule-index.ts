import type { ClassifiableEvent } from './classifiable-event.js';
import type { Condition, QueryNode } from './query-ast.js';

/**
 * Keys that a rule needs an event to have at least one of, so that most rules are never evaluated
 * for most events. A key is a fact an event either has or not: an attendee domain (`d:acme.com`),
 * an address (`e:bob@acme.com`), or a three-letter piece of the title (`t:sta`). A substring of
 * the title contains each of its trigrams, so "title contains 'standup'" needs `t:sta`.
 */
type Keys = ReadonlySet<string>;

const TRIGRAM = 3;

function conditionKeys(condition: Condition): Keys | undefined {
  switch (condition.property) {
    case 'domain':
      return new Set([`d:${condition.value}`]);
    case 'email':
      return new Set([`e:${condition.value}`]);
    case 'title': {
      const needle = condition.value.toLowerCase();
      // The rarest-looking piece would be better; the first is simple and still prunes well.
      return needle.length >= TRIGRAM ? new Set([`t:${needle.slice(0, TRIGRAM)}`]) : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The keys a node needs, or undefined when it can match an event with none of them (a negation,
 * an OR with an unindexable branch, a condition on weekday or time). An AND needs the keys of any
 * one of its items; the smallest set is the most selective.
 */
export function requiredKeys(node: QueryNode): Keys | undefined {
  switch (node.kind) {
    case 'condition':
      return conditionKeys(node);
    case 'not':
      return undefined;
    case 'and': {
      let best: Keys | undefined;
      for (const item of node.items) {
        const keys = requiredKeys(item);
        if (keys && (!best || keys.size < best.size)) best = keys;
      }
      return best;
    }
    case 'or': {
      const union = new Set<string>();
      for (const item of node.items) {
        const keys = requiredKeys(item);
        if (!keys) return undefined;
        for (const key of keys) union.add(key);
      }
      return union;
    }
  }
}

/** The keys an event has: every attendee domain and address, every trigram of its title. */
export function eventKeys(event: ClassifiableEvent): string[] {
  const keys: string[] = [];
  for (const attendee of event.attendees) {
    keys.push(`e:${attendee.email}`, `d:${attendee.email.slice(attendee.email.lastIndexOf('@') + 1)}`);
  }
  for (let i = 0; i + TRIGRAM <= event.title.length; i++) keys.push(`t:${event.title.slice(i, i + TRIGRAM)}`);
  return keys;
}

/**
 * An index from key to the rules that need it, plus the rules that must always be evaluated.
 *
 * @example
 * const index = new RuleIndex(rules, (rule) => rule.tree);
 * for (const rule of index.candidates(event)) …
 */
export class RuleIndex<R> {
  private readonly byKey = new Map<string, R[]>();
  private readonly always: R[] = [];

  constructor(rules: readonly R[], treeOf: (rule: R) => QueryNode) {
    for (const rule of rules) {
      const keys = requiredKeys(treeOf(rule));
      if (!keys) {
        this.always.push(rule);
        continue;
      }
      for (const key of keys) {
        const list = this.byKey.get(key);
        if (list) list.push(rule);
        else this.byKey.set(key, [rule]);
      }
    }
  }

  /** The rules that can match this event: a superset of those that do, each once. */
  candidates(event: ClassifiableEvent): R[] {
    const found = new Set<R>(this.always);
    for (const key of eventKeys(event)) {
      const rules = this.byKey.get(key);
      if (rules) for (const rule of rules) found.add(rule);
    }
    return [...found];
  }
}
