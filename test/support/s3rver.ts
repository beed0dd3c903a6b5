import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

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
