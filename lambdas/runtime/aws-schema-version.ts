import { isDomainError } from '../core/errors.js';
import type { Logger } from '../core/ports/index.js';
import { systemClock } from '../core/ports/index.js';
import { ensureSchemaVersion, type SchemaCheck } from '../core/storage/schema-version.js';
import { awsTableStoreUnchecked, gateOnSchemaCheck } from './aws-table-store.js';
import { type Environment, requireSettings } from './environment.js';

/**
 * The table's schema check for a Lambda function, once per container, begun when the function
 * starts (its INIT) so that the table read overlaps the rest of the cold start — and opens the
 * connection the parts then use. The first request does not wait for it: the function's table
 * store (awsTableStore) holds each write until the check has passed and releases each read with
 * it, and the function's answer is refused afterwards when the table is newer
 * (handlers/middleware/schema-version.ts). An older table is brought up to date in place (the same
 * resumable, idempotent steps as the laptop's data folder, safe with many instances starting at
 * once), a newer one refused with UNSUPPORTED_FORMAT naming both versions. A refusal is kept for
 * the container's life; a failure to reach the table is not, so the next invocation tries again.
 *
 * @example
 * const schemaReady = awsSchemaCheck(processEnvironment(), logger);
 * await schemaReady(); // throws UNSUPPORTED_FORMAT on a table a newer Meridian wrote
 */
export function awsSchemaCheck(
  environment: Environment,
  logger: Logger,
): () => SchemaCheck | Promise<SchemaCheck> {
  const { tableName } = requireSettings(environment, ['tableName']);
  const table = awsTableStoreUnchecked(tableName, environment.awsConnection);
  /** The outcome once the check has passed: answered synchronously from then on. */
  let passed: SchemaCheck | undefined;
  const check = async () => {
    const schema = await ensureSchemaVersion(table, systemClock.now);
    passed = schema;
    if (schema.applied.length > 0)
      logger.info(`Upgraded the table from schema version ${schema.found} to ${schema.version}`, {
        applied: schema.applied,
      });
    return schema;
  };
  const begin = () => {
    const started = check().catch((error: unknown) => {
      if (!isDomainError(error)) checked = undefined;
      throw error;
    });
    // Handled here too: a failure before the first request awaits it is that request's to report.
    started.catch(() => undefined);
    return started;
  };
  let checked: Promise<SchemaCheck> | undefined = begin();
  const schemaReady = () => {
    if (passed !== undefined) return passed;
    checked ??= begin();
    return checked;
  };
  gateOnSchemaCheck(tableName, environment.awsConnection, schemaReady);
  return schemaReady;
}
