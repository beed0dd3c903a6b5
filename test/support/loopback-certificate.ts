import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A self-signed certificate and its key, as files in `dir` and as PEM text. */
export interface LoopbackCertificate {
  dir: string;
  keyFile: string;
  certFile: string;
  key: string;
  cert: string;
}

/**
 * A self-signed certificate for `https://127.0.0.1` (P-256, valid one day), made by openssl in a
 * new temporary folder: for the test servers that must speak https (MSAL refuses an http
 * authority; Client ID Metadata Documents are https only). The caller removes `dir`.
 *
 * @example
 * const { key, cert } = await loopbackCertificate('meridian-cimd-');
 * https.createServer({ key, cert }, handler);
 */
export async function loopbackCertificate(folderPrefix: string): Promise<LoopbackCertificate> {
  const dir = await mkdtemp(join(tmpdir(), folderPrefix));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  return {
    dir,
    keyFile,
    certFile,
    key: await readFile(keyFile, 'utf8'),
    cert: await readFile(certFile, 'utf8'),
  };
}
