import { rm } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { loopbackCertificate } from './loopback-certificate.js';

/**
 * An https server on 127.0.0.1 that serves Client ID Metadata Documents, with a self-signed
 * certificate made by openssl for this run: what a client publishes its metadata from. The
 * authorization server reaches it only when told to trust `ca` for loopback documents.
 */
export async function startClientMetadataServer() {
  const { dir, key, cert: ca } = await loopbackCertificate('meridian-cimd-');
  const documents = new Map<string, unknown>();
  const server = createServer({ key, cert: ca }, (req, res) => {
    const document = documents.get(req.url ?? '');
    res.writeHead(document ? 200 : 404, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(document ?? { error: 'not found' }));
  });
  await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise));
  const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ca,
    /** Publishes `document` at `path` and answers its URL. */
    publish(path: string, document: (url: string) => Record<string, unknown>): string {
      const url = `${base}${path}`;
      documents.set(path, document(url));
      return url;
    },
    async close() {
      await new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
