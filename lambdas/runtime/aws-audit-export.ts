import type { S3Client } from '@aws-sdk/client-s3';
import { createAuditArchiveClient, S3AuditArchive } from '../adapters/s3/s3-audit-archive.js';
import { type DayExport, daysToExport, exportAuditDays } from '../core/audit/audit-export.js';
import { AuditLog } from '../core/audit/audit-log.js';
import type { Logger } from '../core/ports/index.js';
import { systemClock } from '../core/ports/index.js';
import { awsTableStore } from './aws-table-store.js';
import { type Environment, requireSettings } from './environment.js';

/**
 * Composition root of the audit export function: the table's audit log and the Object Lock
 * bucket (MERIDIAN_AUDIT_EXPORT_BUCKET). Answers the run for `days` (default: yesterday's closed
 * chain and today's so far), logging each day exported and any chain problem.
 *
 * @example
 * const exportAudit = createAwsAuditExport(processEnvironment(), logger);
 * await exportAudit();
 */
export function createAwsAuditExport(
  environment: Environment,
  logger: Logger,
  /** @default the function's own client, with its credentials and the endpoint AWS gives it */
  archiveClient: S3Client = createAuditArchiveClient(),
): (days?: readonly string[]) => Promise<DayExport[]> {
  const { tableName, auditExportBucketName } = requireSettings(environment, [
    'tableName',
    'auditExportBucketName',
  ]);
  const log = new AuditLog({
    store: awsTableStore(tableName, environment.awsConnection),
    clock: systemClock,
  });
  const archive = new S3AuditArchive({ client: archiveClient, bucket: auditExportBucketName });
  return async (days = daysToExport(systemClock.now())) => {
    const exported = await exportAuditDays({ log, archive }, days);
    for (const day of exported) {
      if (day.problems > 0)
        logger.error('audit export: the chain does not verify; exported as found', { ...day });
      else logger.info('audit export: day exported', { ...day });
    }
    return exported;
  };
}
