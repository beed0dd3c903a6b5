import { DynamoDbDocumentStore } from '../adapters/dynamodb/dynamodb-document-store.js';
import { type AwsConnection, dynamoDbClientFor } from '../adapters/dynamodb/dynamodb-http-client.js';
import type { DocumentStore } from '../core/ports/index.js';
import type { SchemaCheck } from '../core/storage/schema-version.js';
import { schemaGatedStore } from './schema-gated-store.js';

interface Table {
  /** The table as it is: what the schema check itself reads and writes. */
  direct: DocumentStore;
  /** The table behind its schema check, once the function has begun one: what the parts use. */
  gated: DocumentStore;
  schemaReady?: () => SchemaCheck | Promise<SchemaCheck>;
}

const tables = new Map<string, Table>();

function table(tableName: string, connection: AwsConnection): Table {
  let found = tables.get(tableName);
  if (found === undefined) {
    const direct = new DynamoDbDocumentStore({
      client: dynamoDbClientFor(connection),
      tableName,
    });
    const entry: Table = {
      direct,
      // Until a check is begun (`meridian --aws` runs none) the gate lets everything through.
      gated: schemaGatedStore(direct, () => entry.schemaReady?.() ?? UNCHECKED),
    };
    tables.set(tableName, entry);
    found = entry;
  }
  return found;
}

/** What the gate sees where no schema check was begun: nothing to wait for or to read again. */
const UNCHECKED: SchemaCheck = { found: 0, version: 0, applied: [] };

/**
 * The document store on the deployed table (MERIDIAN_TABLE_NAME), with the function's credentials:
 * one per table and process, so the schema check at cold start and the parts share one client and
 * the connection the check opens. Its writes wait for the schema check the function began
 * ({@link gateOnSchemaCheck}) and its reads are released with it (schema-gated-store.ts), so a
 * first request need not wait for the check before it reads. A file of its own so that a function
 * needing only the table (a booking step's cold start) imports nothing else of the AWS composition.
 */
export function awsTableStore(tableName: string, connection: AwsConnection): DocumentStore {
  return table(tableName, connection).gated;
}

/** The same table and client without the gate: for the schema check itself. */
export function awsTableStoreUnchecked(tableName: string, connection: AwsConnection): DocumentStore {
  return table(tableName, connection).direct;
}

/** Holds {@link awsTableStore}'s writes (and releases its reads) on the function's schema check. */
export function gateOnSchemaCheck(
  tableName: string,
  connection: AwsConnection,
  schemaReady: () => SchemaCheck | Promise<SchemaCheck>,
): void {
  table(tableName, connection).schemaReady = schemaReady;
}
