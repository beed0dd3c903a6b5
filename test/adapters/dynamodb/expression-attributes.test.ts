import { describe, expect, it } from 'vitest';
import {
  conditionExpression,
  ExpressionAttributes,
} from '../../../lambdas/adapters/dynamodb/expression-attributes.js';

describe('conditionExpression', () => {
  it('puts names and values in placeholders, never in the expression text', () => {
    const attributes = new ExpressionAttributes();

    const expression = conditionExpression(
      {
        op: 'or',
        conditions: [
          { op: 'not_exists' },
          { op: 'lt', attribute: 'expiresAt', value: 1_800_000_000 },
          { op: 'eq', attribute: 'owner', value: "x') OR attribute_not_exists(pk" },
        ],
      },
      attributes,
    );

    expect(expression).toBe('(attribute_not_exists(#n0) OR #n1 < :v0 OR #n2 = :v1)');
    expect(attributes.toInput()).toEqual({
      ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'expiresAt', '#n2': 'owner' },
      ExpressionAttributeValues: { ':v0': 1_800_000_000, ':v1': "x') OR attribute_not_exists(pk" },
    });
  });

  it('reuses one name placeholder per attribute and nests and/or in parentheses', () => {
    const attributes = new ExpressionAttributes();

    const expression = conditionExpression(
      {
        op: 'and',
        conditions: [
          { op: 'exists' },
          {
            op: 'or',
            conditions: [
              { op: 'ge', attribute: 'version', value: 2 },
              { op: 'le', attribute: 'version', value: 0 },
            ],
          },
        ],
      },
      attributes,
    );

    expect(expression).toBe('(attribute_exists(#n0) AND (#n1 >= :v0 OR #n1 <= :v1))');
    expect(attributes.names).toEqual({ '#n0': 'pk', '#n1': 'version' });
  });

  it('guards ne with attribute_exists, because DynamoDB treats <> on a missing attribute as true', () => {
    const attributes = new ExpressionAttributes();

    expect(conditionExpression({ op: 'ne', attribute: 'state', value: 'free' }, attributes)).toBe(
      '(attribute_exists(#n0) AND #n0 <> :v0)',
    );
  });

  it('leaves out ExpressionAttributeValues when there are none (DynamoDB rejects an empty map)', () => {
    const attributes = new ExpressionAttributes();

    conditionExpression({ op: 'not_exists' }, attributes);

    expect(attributes.toInput()).toEqual({ ExpressionAttributeNames: { '#n0': 'pk' } });
  });

  it('rejects an empty and/or', () => {
    expect(() => conditionExpression({ op: 'and', conditions: [] }, new ExpressionAttributes())).toThrow(
      'needs at least one condition',
    );
  });
});
