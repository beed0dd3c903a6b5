/**
 * Where exports of the audit log are kept out of reach of the table's writers: on AWS a bucket
 * with S3 Object Lock (lambdas/adapters/s3/s3-audit-archive.ts), so that a chain rewritten in the
 * table later no longer matches the copy taken before.
 */
export interface AuditArchive {
  /**
   * Stores `bytes` under `key` unless the key holds an object already (the same export, written
   * by an earlier run: keys name their content). Answers whether this call wrote it.
   */
  keep(key: string, bytes: Uint8Array): Promise<'written' | 'kept-before'>;
}
