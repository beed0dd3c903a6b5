import { DomainError, isDomainError } from '../errors.js';
import { parseQuery } from './parse-query.js';
import { printQuery } from './print-query.js';

/** One structured condition, as create_classification_rule takes it. */
export interface StructuredCondition {
  readonly property: string;
  readonly value: string;
  readonly negated?: boolean | undefined;
}

/** Quotes a value so that the scanner reads it back exactly: `\` and `"` escaped. */
export function quoteValue(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * Builds the canonical query for structured conditions joined by AND or OR. Each condition is
 * checked on its own first, so an error names the condition to fix (`conditions[i]`) with the
 * parser's code (INVALID_PROPERTY, INVALID_VALUE) and hints.
 *
 * @example
 * assembleQuery([{ property: 'domain', value: 'acme.com' }, { property: 'title', value: 'team "sync"', negated: true }], 'AND');
 * // 'domain:acme.com -title:"team \\"sync\\""'
 */
export function assembleQuery(conditions: readonly StructuredCondition[], logic: 'AND' | 'OR'): string {
  if (conditions.length === 0) {
    throw new DomainError(
      'INVALID_INPUT',
      'conditions is empty: give at least one, e.g. [{"property":"domain","value":"acme.com"}].',
      { field: 'conditions' },
    );
  }
  const parts = conditions.map((condition, i) => {
    const text = `${condition.negated ? '-' : ''}${condition.property}:${quoteValue(condition.value)}`;
    try {
      parseQuery(text);
    } catch (error) {
      if (!isDomainError(error)) throw error;
      throw new DomainError(error.code, `conditions[${i}]: ${error.message}`, {
        ...error.details,
        field: `conditions[${i}]`,
      });
    }
    return text;
  });
  return printQuery(parseQuery(parts.join(logic === 'OR' ? ' OR ' : ' ')));
}
