import { DomainError } from '../../core/errors.js';
import { GSI1_KEYS, TABLE_KEYS } from './table-design.js';

/** A DynamoDB `LastEvaluatedKey` as the document client returns it: key attribute → string. */
export type PageKey = Record<string, string>;

/**
 * Encodes a `LastEvaluatedKey` as an opaque, URL-safe cursor (base64url of its JSON).
 *
 * @example
 * encodeCursor({ pk: 'CAL#1', sk: 'EVT#2026-03-01' }) // 'eyJwayI6…'
 */
export function encodeCursor(lastEvaluatedKey: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(lastEvaluatedKey), 'utf8').toString('base64url');
}

/**
 * Decodes a cursor read back from a caller and checks that it is a start key for this very query:
 * exactly the key attributes of the queried table or index, all strings, in the queried partition.
 * Cursors travel through agents, so anything else is rejected with an error the caller can act on
 * rather than passed to DynamoDB (which would answer with an opaque ValidationException).
 *
 * @example
 * decodeCursor(page.cursor, 'table', 'CAL#1') // { pk: 'CAL#1', sk: 'EVT#2026-03-01' }
 */
export function decodeCursor(cursor: string, index: 'table' | 'gsi1', partition: string): PageKey {
  const expected: string[] =
    index === 'table'
      ? [TABLE_KEYS.partition, TABLE_KEYS.sort]
      : [TABLE_KEYS.partition, TABLE_KEYS.sort, GSI1_KEYS.partition, GSI1_KEYS.sort];
  const partitionAttribute = index === 'table' ? TABLE_KEYS.partition : GSI1_KEYS.partition;

  const key = parseJson(cursor);
  const valid =
    typeof key === 'object' &&
    key !== null &&
    !Array.isArray(key) &&
    Object.keys(key).length === expected.length &&
    expected.every((name) => typeof (key as Record<string, unknown>)[name] === 'string') &&
    (key as PageKey)[partitionAttribute] === partition;
  if (!valid) {
    throw new DomainError(
      'INVALID_INPUT',
      'The cursor does not belong to this query: pass back the cursor of the previous page unchanged, or omit it to start from the first page.',
      { field: 'cursor' },
    );
  }
  return key as PageKey;
}

function parseJson(cursor: string): unknown {
  // Buffer.from(…, 'base64url') never throws: it skips foreign characters, so the strict alphabet
  // check comes first and JSON.parse catches the rest.
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}
