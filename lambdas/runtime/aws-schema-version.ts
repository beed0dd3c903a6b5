import { isDomainError } from '../core/errors.js';
import type { DocumentStore, Logger } from '../core/ports/index.js';
import { systemClock } from '../core/ports/index.js';
import { ensureSchemaVersion, type SchemaCheck } from '../core/storage/schema-version.js';
import { awsTableStore } from './aws-table-store.js';
import { type Environment, requireSettings } from './environment.js';

/**
 * The table's schema check for a Lambda function, once per container, begun when the function
 * starts (its INIT) so that the table read overlaps the rest of the cold start — and opens the
 * connection the parts then use — instead of waiting in front of the first request, which awaits
 * it before reading the table. An older table is brought up to date in place (the same
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
  /** @default the table MERIDIAN_TABLE_NAME names */
  store: DocumentStore = awsTableStore(requireSettings(environment, ['tableName']).tableName),
): () => Promise<SchemaCheck> {
  const check = async () => {
    const schema = await ensureSchemaVersion(store, systemClock.now);
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
  return () => {
    checked ??= begin();
    return checked;
  };
}
