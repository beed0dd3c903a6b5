import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertPresent, RADICALE } from './system-parts.js';

/** A running Radicale CalDAV server started for a test file. */
export interface RadicaleServer {
  /** Root URL, e.g. `http://127.0.0.1:41234/`. */
  url: string;
  /** Users and their (plain-text) passwords, as written to the htpasswd file. */
  users: Record<string, string>;
  stop(): Promise<void>;
}

const READY_LIMIT_MS = 10_000;
const POLL_EVERY_MS = 50;

/** Asks the OS for a free port by binding port 0, then releases it for Radicale to take. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a real Radicale on 127.0.0.1 with a fresh storage folder and htpasswd auth (plain text),
 * so that credentials are really checked. Retries on a port race; fails fast when the process
 * exits and gives up after 10 s of readiness polling.
 *
 * @example
 * const radicale = await startRadicale({ alice: 's3cret' });
 * // … new CalDavCalendarProvider({ serverUrl: radicale.url, username: 'alice', password: 's3cret', … })
 * await radicale.stop();
 */
export async function startRadicale(users: Record<string, string>): Promise<RadicaleServer> {
  assertPresent(RADICALE);
  const dir = await mkdtemp(join(tmpdir(), 'meridian-radicale-'));
  const htpasswd = join(dir, 'users');
  await writeFile(
    htpasswd,
    Object.entries(users).map(([user, password]) => `${user}:${password}\n`),
  );
  let lastError: unknown;
  // The port is free when we ask but another process may take it before Radicale binds it.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const port = await freePort();
      const child = spawnRadicale(port, dir, htpasswd);
      const url = `http://127.0.0.1:${port}/`;
      await waitUntilReady(child, url);
      return {
        url,
        users,
        stop: async () => {
          await kill(child);
          await rm(dir, { recursive: true, force: true });
        },
      };
    } catch (error) {
      lastError = error;
    }
  }
  await rm(dir, { recursive: true, force: true });
  throw lastError;
}

function spawnRadicale(port: number, dir: string, htpasswd: string): ChildProcess {
  // `--config ""` skips Debian's /etc/radicale/config (which demands remote_user auth);
  // `--auth-delay 0` keeps the wrong-password test from sleeping a second.
  const args = [
    '--config',
    '',
    '--server-hosts',
    `127.0.0.1:${port}`,
    '--auth-type',
    'htpasswd',
    '--auth-htpasswd-filename',
    htpasswd,
    '--auth-htpasswd-encryption',
    'plain',
    '--auth-delay',
    '0',
    '--rights-type',
    'owner_only',
    '--storage-filesystem-folder',
    join(dir, 'collections'),
    '--logging-level',
    'warning',
  ];
  const child = spawn('radicale', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.setEncoding('utf8');
  let stderr = '';
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  Object.defineProperty(child, 'recentStderr', { get: () => stderr });
  return child;
}

async function waitUntilReady(child: ChildProcess, url: string): Promise<void> {
  const deadline = Date.now() + READY_LIMIT_MS;
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = `radicale exited (code ${code}, signal ${signal}): ${(child as unknown as { recentStderr: string }).recentStderr}`;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(exited);
    try {
      // Any HTTP answer (401 without credentials) means the server is listening.
      await fetch(url, { method: 'OPTIONS' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
    }
  }
  await kill(child);
  throw new Error(`radicale did not answer on ${url} within ${READY_LIMIT_MS} ms`);
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
