import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';
import { dynaliteLevel, isLevelLocked } from './dynalite-level.js';
import { createLocalDynamoDbClient, createSocketDynamoDbClient } from './local-dynamodb.js';

export interface DynaliteServer {
  /**
   * `http://127.0.0.1:41234` for `createLocalDynamoDbClient`, or, when started on a Unix socket,
   * that socket's path for `createSocketDynamoDbClient`.
   */
  endpoint: string;
  /** Stops the server and closes LevelDB, releasing its lock on `path`. */
  close(): Promise<void>;
}

/**
 * Runs dynalite (DynamoDB on LevelDB) in this process — the document store of the embedded
 * runtime, and a fast engine for tests. It listens on `socketPath` (a Unix domain socket, which
 * only users who can reach its folder can connect to: dynalite checks no credentials) when given,
 * else on 127.0.0.1 and an ephemeral port (tests). Data lives on disk under `path` (created if
 * missing) when given, in memory otherwise; a `path` another process holds is refused at start.
 * Tables are ACTIVE at once (`createTableMs: 0`).
 *
 * @example
 * const dynamo = await startDynalite({ path: join(dataDir, 'dynamodb') });
 * const client = createLocalDynamoDbClient(dynamo.endpoint);
 * // … later
 * client.destroy();
 * await dynamo.close();
 */
export async function startDynalite(
  options: { path?: string; socketPath?: string } = {},
): Promise<DynaliteServer> {
  if (options.path) {
    await mkdir(options.path, { recursive: true });
    await assertNotLocked(options.path);
  }
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, path: options.path });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const listening = () => {
      server.off('error', reject);
      resolve();
    };
    if (options.socketPath) server.listen(options.socketPath, listening);
    else server.listen(0, '127.0.0.1', listening);
  });
  const endpoint = options.socketPath ?? `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // dynalite's close() closes LevelDB (releasing its lock) once the HTTP server has closed; Node
  // (≥ 19) drops idle keep-alive connections at once, so that waits only for requests in flight.
  const close = () =>
    new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  if (options.path) {
    try {
      await holdFolderLock(endpoint, options.socketPath);
    } catch (error) {
      await close().catch(() => undefined);
      throw error;
    }
  }
  return { endpoint, close };
}

/**
 * dynalite opens LevelDB in the background as it starts: until that open is done the folder's
 * lock is not held, and another process starting on the same folder would pass
 * {@link assertNotLocked} and then hang. One request, which waits for the open, closes that
 * window before the server is handed out.
 */
async function holdFolderLock(endpoint: string, socketPath: string | undefined): Promise<void> {
  const client = socketPath ? createSocketDynamoDbClient(socketPath) : createLocalDynamoDbClient(endpoint);
  try {
    await client.send('ListTables', {});
  } finally {
    client.destroy();
  }
}

/**
 * dynalite opens LevelDB lazily: on a folder another process holds, every request then hangs and
 * an uncaught error follows. Opening the folder first turns that into a clear error at start.
 */
async function assertNotLocked(path: string): Promise<void> {
  const database = dynaliteLevel(path);
  try {
    await database.open();
  } catch (error) {
    const locked = isLevelLocked(error);
    throw new Error(
      locked
        ? `The data folder ${path} is in use by another process (another Meridian?); stop it or use another data folder.`
        : `dynalite cannot open its data folder ${path}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  await database.close();
}
