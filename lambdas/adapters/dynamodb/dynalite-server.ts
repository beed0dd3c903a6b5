import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';

export interface DynaliteServer {
  /** e.g. `http://127.0.0.1:41234`; give it to `createLocalDynamoDbClient`. */
  endpoint: string;
  /** Stops the server and closes LevelDB, releasing its lock on `path`. */
  close(): Promise<void>;
}

/**
 * Runs dynalite (DynamoDB on LevelDB) in this process on 127.0.0.1 and an ephemeral port — the
 * document store of the embedded runtime, and a fast engine for tests. Data lives on disk under
 * `path` (created if missing) when given, in memory otherwise; a `path` another process holds is
 * refused at start. Tables are ACTIVE at once (`createTableMs: 0`).
 *
 * @example
 * const dynamo = await startDynalite({ path: join(dataDir, 'dynamodb') });
 * const client = createLocalDynamoDbClient(dynamo.endpoint);
 * // … later
 * client.destroy();
 * await dynamo.close();
 */
export async function startDynalite(options: { path?: string } = {}): Promise<DynaliteServer> {
  if (options.path) {
    await mkdir(options.path, { recursive: true });
    await assertNotLocked(options.path);
  }
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, path: options.path });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    // dynalite's close() closes LevelDB (releasing its lock) once the HTTP server has closed; Node
    // (≥ 19) drops idle keep-alive connections at once, so that waits only for requests in flight.
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

interface LevelDatabase {
  open(): Promise<void>;
  close(): Promise<void>;
}

/**
 * dynalite opens LevelDB lazily: on a folder another process holds, every request then hangs and
 * an uncaught error follows. Opening the folder first, with the very `level` package dynalite
 * uses (so no dependency of our own), turns that into a clear error at start.
 */
async function assertNotLocked(path: string): Promise<void> {
  const requireFromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));
  const { Level } = requireFromDynalite('level') as { Level: new (path: string) => LevelDatabase };
  const database = new Level(path);
  try {
    await database.open();
  } catch (error) {
    const locked = (error as { cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED';
    throw new Error(
      locked
        ? `The data folder ${path} is in use by another process (another Meridian?); stop it or use another data folder.`
        : `dynalite cannot open its data folder ${path}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  await database.close();
}
