import { HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { AuditArchive } from '../../core/ports/index.js';
import { sha256Hex } from '../../core/ports/index.js';

/**
 * The audit archive on a bucket with S3 Object Lock (lib/constructs/audit-export-bucket.ts): the
 * bucket's default retention locks each object as it is written, so neither this function nor
 * anyone without the right to bypass it can change or delete an export until it expires. Two
 * calls only — HeadObject and a create-only PutObject — so the function's role needs no more
 * (it may not delete: test/rehearsal checks the role against the calls its bundle can send).
 *
 * Object Lock requires an integrity checksum on every PUT: each carries the body's SHA-256. A
 * key already there is an export an earlier run wrote (keys name their content): left as it is.
 * `If-None-Match: *` makes that atomic on S3; s3rver ignores it, so the HEAD answers there.
 */
export class S3AuditArchive implements AuditArchive {
  constructor(private readonly options: { client: S3Client; bucket: string }) {}

  async keep(key: string, bytes: Uint8Array): Promise<'written' | 'kept-before'> {
    const { client, bucket } = this.options;
    if (await this.exists(key)) return 'kept-before';
    try {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: bytes,
          ContentType: 'application/x-ndjson',
          IfNoneMatch: '*',
          ChecksumSHA256: Buffer.from(sha256Hex(bytes), 'hex').toString('base64'),
        }),
      );
      return 'written';
    } catch (error) {
      if (statusOf(error) === 412 || statusOf(error) === 409) return 'kept-before';
      throw error;
    }
  }

  private async exists(key: string): Promise<boolean> {
    try {
      await this.options.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }
}

/**
 * The archive's S3 client: checksums only where an operation requires them (the PUT sends its own
 * SHA-256), as the blob store's client does, so s3rver stores bodies as sent.
 */
export function createAuditArchiveClient(): S3Client {
  return new S3Client({
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

function statusOf(error: unknown): number | undefined {
  if (error instanceof S3ServiceException) return error.$metadata.httpStatusCode;
  return (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}
