import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../../lambdas/adapters/s3/s3-blob-store.js';
import { BlobExistsError } from '../../../lambdas/core/ports/index.js';
import { type RunningS3rver, s3rverClient, startS3rver } from '../../support/s3rver.js';
import { describeBlobStoreContract } from '../blob-store-contract.js';

const BUCKET = 'meridian-memory-test';

describeBlobStoreContract('S3 over the wire (s3rver)', async () => {
  const s3 = await startS3rver([BUCKET]);
  const client = s3rverClient(s3.endpoint);
  return {
    store: new S3BlobStore({ client, bucket: BUCKET }),
    close: async () => {
      client.destroy();
      await s3.close();
    },
  };
});

describe('S3BlobStore', () => {
  describe('put', () => {
    let s3: RunningS3rver;

    beforeAll(async () => {
      s3 = await startS3rver([BUCKET]);
    });
    afterAll(async () => {
      await s3.close();
    });

    it('sends a create-only PUT that carries the body SHA-256 for S3 to check', async () => {
      const client = s3rverClient(s3.endpoint);
      const seen: Record<string, string>[] = [];
      client.middlewareStack.add(
        (next) => async (args) => {
          const request = args.request as { method: string; headers: Record<string, string> };
          if (request.method === 'PUT') seen.push({ ...request.headers });
          return next(args);
        },
        { step: 'finalizeRequest', name: 'recordPutHeaders' },
      );
      const store = new S3BlobStore({ client, bucket: BUCKET });

      const { sha256 } = await store.put('shape/put', new TextEncoder().encode('body'));

      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({
        'if-none-match': '*',
        'x-amz-checksum-sha256': Buffer.from(sha256, 'hex').toString('base64'),
        'x-amz-meta-sha256': sha256,
      });
      expect(seen[0]!['content-encoding'] ?? '').not.toContain('aws-chunked');
      client.destroy();
    });
  });

  describe('put against S3 refusing the conditional write', () => {
    // s3rver ignores If-None-Match, so this stands in for the answers real S3 gives when another
    // writer created the key between our HEAD and our PUT: 412 Precondition Failed, or 409 while
    // that write is still in flight.
    let server: Server;
    let status = 412;

    beforeAll(async () => {
      server = createServer((request, response) => {
        request.resume();
        request.on('end', () => {
          if (request.method === 'HEAD') {
            response.writeHead(404).end();
            return;
          }
          response.writeHead(status, { 'content-type': 'application/xml' });
          response.end(
            '<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code>' +
              '<Message>At least one of the pre-conditions you specified did not hold</Message></Error>',
          );
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    it.each([412, 409])('turns HTTP %i into BlobExistsError', async (answer) => {
      status = answer;
      const { port } = server.address() as AddressInfo;
      const client = s3rverClient(`http://127.0.0.1:${port}`);
      const store = new S3BlobStore({ client, bucket: BUCKET });

      await expect(store.put('raced/key', new Uint8Array([1]))).rejects.toBeInstanceOf(BlobExistsError);
      client.destroy();
    });
  });
});
