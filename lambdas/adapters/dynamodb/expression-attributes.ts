import type { Condition } from '../../core/ports/index.js';
import { TABLE_KEYS } from './table-design.js';

const COMPARATORS = { eq: '=', ne: '<>', lt: '<', le: '<=', gt: '>', ge: '>=' } as const;

/**
 * Collects expression placeholders so that no attribute name or value is ever spliced into
 * expression text: names become `#n0…` (which also sidesteps DynamoDB's reserved words such as
 * `status` or `ttl`), values become `:v0…`.
 *
 * @example
 * const attributes = new ExpressionAttributes();
 * const expression = conditionExpression({ op: 'eq', attribute: 'version', value: 3 }, attributes);
 * // expression === '#n0 = :v0', attributes.names === { '#n0': 'version' }, values === { ':v0': 3 }
 */
export class ExpressionAttributes {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  readonly #nameIndex = new Map<string, string>();
  #valueCount = 0;

  /** The placeholder for an attribute name (one per distinct name). */
  name(attribute: string): string {
    let placeholder = this.#nameIndex.get(attribute);
    if (placeholder === undefined) {
      placeholder = `#n${this.#nameIndex.size}`;
      this.#nameIndex.set(attribute, placeholder);
      this.names[placeholder] = attribute;
    }
    return placeholder;
  }

  /** A fresh placeholder bound to `value`. */
  value(value: unknown): string {
    const placeholder = `:v${this.#valueCount++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** The command fields; empty maps are left out because DynamoDB rejects them. */
  toInput(): {
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, unknown>;
  } {
    return {
      ...(this.#nameIndex.size > 0 && { ExpressionAttributeNames: this.names }),
      ...(this.#valueCount > 0 && { ExpressionAttributeValues: this.values }),
    };
  }
}

/**
 * Translates a port {@link Condition} into a DynamoDB condition expression, registering every name
 * and value in `attributes`.
 *
 * @example
 * conditionExpression({ op: 'or', conditions: [{ op: 'not_exists' }, { op: 'lt', attribute: 'expiresAt', value: now }] }, attributes);
 * // '(attribute_not_exists(#n0) OR #n1 < :v0)'
 */
export function conditionExpression(condition: Condition, attributes: ExpressionAttributes): string {
  switch (condition.op) {
    case 'exists':
      return `attribute_exists(${attributes.name(TABLE_KEYS.partition)})`;
    case 'not_exists':
      return `attribute_not_exists(${attributes.name(TABLE_KEYS.partition)})`;
    case 'and':
    case 'or': {
      if (condition.conditions.length === 0) {
        throw new Error(`An "${condition.op}" condition needs at least one condition.`);
      }
      const parts = condition.conditions.map((part) => conditionExpression(part, attributes));
      return `(${parts.join(condition.op === 'and' ? ' AND ' : ' OR ')})`;
    }
    default: {
      const name = attributes.name(condition.attribute);
      const comparison = `${name} ${COMPARATORS[condition.op]} ${attributes.value(condition.value)}`;
      // The port promises that a missing attribute fails every comparison; `<>` alone would be
      // true for a missing attribute, so it is guarded explicitly.
      return condition.op === 'ne' ? `(attribute_exists(${name}) AND ${comparison})` : comparison;
    }
  }
}
