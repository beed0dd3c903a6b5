import type { Weekday } from './rule-properties.js';

/** A comparison on `time-of-day`; `=` when the query gives none. */
export type TimeOperator = '>' | '>=' | '<' | '<=' | '=';

/** One condition, its value already validated and in canonical form. */
export type Condition =
  | { readonly kind: 'condition'; readonly property: TextProperty; readonly value: string }
  | { readonly kind: 'condition'; readonly property: 'domain' | 'email'; readonly value: string }
  | {
      readonly kind: 'condition';
      readonly property: 'response';
      readonly value: 'accepted' | 'declined' | 'tentative' | 'needsAction';
    }
  | {
      readonly kind: 'condition';
      readonly property: 'status';
      readonly value: 'confirmed' | 'tentative' | 'cancelled';
    }
  | {
      readonly kind: 'condition';
      readonly property: 'transparency';
      readonly value: 'opaque' | 'transparent';
    }
  | { readonly kind: 'condition'; readonly property: BooleanProperty; readonly value: 'yes' | 'no' }
  | { readonly kind: 'condition'; readonly property: 'day-of-week'; readonly value: Weekday }
  | {
      readonly kind: 'condition';
      readonly property: 'time-of-day';
      readonly operator: TimeOperator;
      /** Minutes after local midnight. */
      readonly minutes: number;
      /** Canonical HH:MM. */
      readonly value: string;
    };

export type TextProperty = 'title' | 'description' | 'attendees' | 'calendar' | 'text';
export type BooleanProperty = 'recurring' | 'is-all-day' | 'has-attendees';

/**
 * A parsed query. `and`/`or` always hold two or more items and never directly hold a node of their
 * own kind (the parser flattens), so one query has one tree and printing is canonical.
 */
export type QueryNode =
  | Condition
  | { readonly kind: 'and'; readonly items: readonly QueryNode[] }
  | { readonly kind: 'or'; readonly items: readonly QueryNode[] }
  | { readonly kind: 'not'; readonly item: QueryNode };

/** Every condition of a query, in order (for "which conditions matched" and for rule indexing). */
export function conditionsOf(node: QueryNode): Condition[] {
  switch (node.kind) {
    case 'condition':
      return [node];
    case 'not':
      return conditionsOf(node.item);
    default:
      return node.items.flatMap(conditionsOf);
  }
}
