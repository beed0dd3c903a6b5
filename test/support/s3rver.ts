import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { createBlobS3Client } from '../../lambdas/adapters/s3/s3-blob-store.js';

export interface RunningS3rver {
  /** `http://127.0.0.1:<port>`, for an S3 client with `forcePathStyle: true`. */
  endpoint: string;
  close(): Promise<void>;
}

/**
 * A real S3 wire server (s3rver) in this process, on a free loopback port, storing objects in a
 * fresh temporary folder, with `buckets` already created. TOOLCHAIN.md lists what it does not
 * emulate (If-None-Match, SSE, continuation tokens on Node 20).
 */
export async function startS3rver(buckets: string[]): Promise<RunningS3rver> {
  const directory = await mkdtemp(join(tmpdir(), 'meridian-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * The blob store's S3 client pointed at an s3rver endpoint (path-style, s3rver's fixed
 * credentials). `maxAttempts: 1` makes an unreachable endpoint fail at once.
 */
export function s3rverClient(endpoint: string, options: { maxAttempts?: number } = {}): S3Client {
  return createBlobS3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    ...options,
  });
}
