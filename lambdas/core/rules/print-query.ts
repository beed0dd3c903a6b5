import type { Condition, QueryNode } from './query-ast.js';

// A value is written bare when scanning it back gives the same value: no space, parenthesis or
// leading quote, and not a keyword.
const BARE = /^[^\s()"]+$/;

function printValue(value: string): string {
  if (BARE.test(value)) return value;
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function printCondition(condition: Condition): string {
  if (condition.property === 'time-of-day') {
    const operator = condition.operator === '=' ? '' : condition.operator;
    return `time-of-day:${operator}${condition.value}`;
  }
  return `${condition.property}:${printValue(condition.value)}`;
}

/**
 * The canonical text of a query: `text:` for bare words, canonical values, AND as juxtaposition,
 * parentheses only where precedence needs them (an AND inside an OR, a group under `-`).
 * `parseQuery(printQuery(tree))` is `tree`.
 *
 * @example
 * printQuery(parseQuery('(Title:Standup or) AND -(domain:@ACME.com)'));
 * // 'title:Standup text:or -domain:acme.com'
 */
export function printQuery(node: QueryNode): string {
  switch (node.kind) {
    case 'condition':
      return printCondition(node);
    case 'not':
      return node.item.kind === 'and' || node.item.kind === 'or'
        ? `-(${printQuery(node.item)})`
        : `-${printQuery(node.item)}`;
    case 'or':
      return node.items
        .map((item) => (item.kind === 'and' ? `(${printQuery(item)})` : printQuery(item)))
        .join(' OR ');
    case 'and':
      return node.items.map(printQuery).join(' ');
  }
}
