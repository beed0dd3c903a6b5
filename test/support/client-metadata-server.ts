import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * An https server on 127.0.0.1 that serves Client ID Metadata Documents, with a self-signed
 * certificate made by openssl for this run: what a client publishes its metadata from. The
 * authorization server reaches it only when told to trust `ca` for loopback documents.
 */
export async function startClientMetadataServer() {
  const dir = await mkdtemp(join(tmpdir(), 'meridian-cimd-'));
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  const ca = await readFile(cert, 'utf8');
  const documents = new Map<string, unknown>();
  const server = createServer({ key: await readFile(key), cert: ca }, (req, res) => {
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
