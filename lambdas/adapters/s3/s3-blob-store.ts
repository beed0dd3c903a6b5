import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import {
  assertBlobKey,
  assertBlobPrefix,
  BlobExistsError,
  type BlobInfo,
  type BlobListOptions,
  BlobNotFoundError,
  type BlobPage,
  type BlobStore,
  type BlobWritten,
  blobCursor,
  blobPageSize,
  keyAfterCursor,
  sha256Hex,
  verifyBlob,
} from '../../core/ports/index.js';

/** User metadata (`x-amz-meta-sha256`) carrying the hex SHA-256 that head() reports. */
const SHA256_METADATA = 'sha256';

export interface S3BlobStoreOptions {
  client: S3Client;
  bucket: string;
}

/**
 * The AWS runtime's blob store: one object per blob in the memory bucket (versioned, SSE-KMS
 * under the data key; see lib/constructs/memory-bucket.ts).
 *
 * Create-only takes two steps. On real S3 the conditional `PutObject` with `If-None-Match: *` is
 * the guarantee: S3 refuses (412, or 409 while a concurrent write to the key is in flight) when an
 * object exists, atomically. s3rver, the wire server the contract suite runs against, ignores that
 * header, so a HEAD first refuses an existing key there too; on s3rver two writers racing between
 * the HEAD and the PUT can both succeed, on S3 they cannot. The HEAD also gives a clean
 * BlobExistsError without sending the body.
 *
 * Every PUT carries the body's SHA-256 (`ChecksumSHA256`): S3 checks it on arrival and rejects a
 * body damaged in transit.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3BlobStoreOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
  }

  async put(key: string, bytes: Uint8Array): Promise<BlobWritten> {
    assertBlobKey(key);
    if (await this.head(key)) throw new BlobExistsError(key);
    const sha256 = sha256Hex(bytes);
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: bytes,
          IfNoneMatch: '*',
          ChecksumSHA256: Buffer.from(sha256, 'hex').toString('base64'),
          Metadata: { [SHA256_METADATA]: sha256 },
        }),
      );
    } catch (error) {
      if (statusOf(error) === 412 || statusOf(error) === 409)
        throw new BlobExistsError(key, { cause: error });
      throw error;
    }
    return { key, size: bytes.byteLength, sha256 };
  }

  async get(key: string, options: { expectedSha256?: string } = {}): Promise<Uint8Array> {
    assertBlobKey(key);
    try {
      const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const bytes = await Body!.transformToByteArray();
      verifyBlob(key, bytes, options.expectedSha256);
      return bytes;
    } catch (error) {
      if (statusOf(error) === 404) throw new BlobNotFoundError(key, { cause: error });
      throw error;
    }
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    assertBlobKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      const sha256 = head.Metadata?.[SHA256_METADATA];
      if (sha256 === undefined) {
        throw new Error(
          `The object "${key}" has no ${SHA256_METADATA} metadata: it was not written by Meridian.`,
        );
      }
      return { key, size: head.ContentLength ?? 0, sha256 };
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  }

  /** In the versioned bucket this adds a delete marker; the lifecycle rule expires the old version. */
  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async list(options: BlobListOptions): Promise<BlobPage> {
    assertBlobPrefix(options.prefix);
    const limit = blobPageSize(options.limit);
    const after = keyAfterCursor(options.cursor);
    // ListObjects (v1) with Marker, not ListObjectsV2: with no delimiter the two page identically
    // ("start after this key"), and s3rver answers HTTP 500 to any truncated v2 listing on Node 20,
    // because it builds the continuation token with a cipher OpenSSL 3 only has behind a legacy flag.
    const page = await this.client.send(
      new ListObjectsCommand({
        Bucket: this.bucket,
        Prefix: options.prefix,
        MaxKeys: limit,
        ...(after === undefined ? {} : { Marker: after }),
      }),
    );
    const blobs = (page.Contents ?? []).map((object) => ({ key: object.Key!, size: object.Size ?? 0 }));
    return page.IsTruncated && blobs.length > 0
      ? { blobs, cursor: blobCursor(blobs.at(-1)!.key) }
      : { blobs };
  }
}

/**
 * An S3 client for the blob store. Checksums only where an operation requires them: with the
 * SDK's default (`WHEN_SUPPORTED`) a body is sent with aws-chunked framing that s3rver stores
 * verbatim (TOOLCHAIN.md), and put() sends its own SHA-256 anyway.
 */
export function createBlobS3Client(config: S3ClientConfig = {}): S3Client {
  return new S3Client({
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...config,
  });
}

function statusOf(error: unknown): number | undefined {
  if (error instanceof S3ServiceException) return error.$metadata.httpStatusCode;
  return (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}
