import { chmod, rename, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repairDynaliteIndexes } from '../adapters/dynamodb/dynalite-index-repair.js';
import { dynaliteLevel, isLevelLocked, type LevelDatabase } from '../adapters/dynamodb/dynalite-level.js';
import { type DynaliteServer, startDynalite } from '../adapters/dynamodb/dynalite-server.js';
import { createSocketDynamoDbClient, ensureTable } from '../adapters/dynamodb/local-dynamodb.js';
import { storageFailure } from '../core/ports/index.js';
import { fixedDelay, retry } from '../core/retry.js';

export const EMBEDDED_TABLE = 'meridian';

/** Linux caps a Unix socket path at 107 bytes; the temporary name adds a pid. */
const MAX_SOCKET_PATH = 96;

/** Where the processes sharing one data folder find its store, and who serves it. */
export function storePaths(dataDir: string) {
  return {
    /** dynalite's LevelDB folder. */
    data: join(dataDir, 'dynamodb'),
    /** The Unix socket the holder serves it on. */
    socket: join(dataDir, 'dynamodb.sock'),
    /** A LevelDB folder used only for its lock: whoever holds it serves the store. */
    holder: join(dataDir, 'dynamodb.holder'),
  };
}

/** Whether something accepts connections on the Unix socket at `path`. */
function accepts(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ path });
    socket.setTimeout(2000, () => socket.destroy());
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}

/**
 * One process per data folder serves the embedded store (dynalite on a Unix socket); any number
 * of others (serve, stdio, CLI) use it through that socket. The server is whoever holds the
 * `dynamodb.holder` LevelDB lock, which the kernel releases when its process exits, however it
 * exits. {@link StoreTakeover.ensureServed} makes sure some process serves the folder — this one,
 * when nobody does — and is what a client calls after a connection failure: the first process to
 * get the lock repairs the store, serves it, and the rest reconnect to it.
 *
 * @example
 * const takeover = new StoreTakeover(dataDir);
 * await takeover.ensureServed();
 * // … on exit
 * await takeover.release();
 */
export class StoreTakeover {
  readonly #paths: ReturnType<typeof storePaths>;
  readonly #timeoutMs: number;
  #held?: { server: DynaliteServer; lock: LevelDatabase };
  #pending?: Promise<void>;
  #released = false;

  constructor(dataDir: string, options: { timeoutMs?: number } = {}) {
    this.#paths = storePaths(dataDir);
    this.#timeoutMs = options.timeoutMs ?? 20_000;
    if (Buffer.byteLength(this.#paths.socket) > MAX_SOCKET_PATH) {
      throw new Error(
        `The data folder path ${dataDir} is too long for the store's Unix socket (${MAX_SOCKET_PATH} bytes at most with "/dynamodb.sock"); use a shorter --data-dir.`,
      );
    }
  }

  get socketPath(): string {
    return this.#paths.socket;
  }

  /** Resolves once a process serves the store on the socket; concurrent calls share one attempt. */
  ensureServed(): Promise<void> {
    this.#pending ??= this.#ensure().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** Stops serving (if this process did), so that another process takes over. */
  async release(): Promise<void> {
    this.#released = true;
    await this.#pending?.catch(() => undefined);
    const held = this.#held;
    this.#held = undefined;
    if (!held) return;
    // The LevelDB folder closes with the server; only then may another process take it. While we
    // hold the lock nobody else can have moved a socket into place, so the one there is ours.
    await held.server.close();
    await rm(this.#paths.socket, { force: true });
    await held.lock.close();
  }

  async #ensure(): Promise<void> {
    try {
      await retry(
        async () => {
          if (this.#released) throw storageFailure('this process is shutting down');
          if (this.#held || (await accepts(this.#paths.socket))) return;
          if (await this.#tryTakeOver()) return;
          throw new NotServedYet();
        },
        {
          isRetryable: (error) => error instanceof NotServedYet,
          // The holder is stopping (it releases its lock last) or starting: wait a moment.
          backoff: fixedDelay(20, 80),
          sleep: (ms) => sleep(ms),
          deadline: { atMs: Date.now() + this.#timeoutMs, now: Date.now },
        },
      );
    } catch (error) {
      if (!(error instanceof NotServedYet)) throw error;
      throw storageFailure(`no process served it within ${this.#timeoutMs / 1000} s`);
    }
  }

  async #tryTakeOver(): Promise<boolean> {
    const lock = dynaliteLevel(this.#paths.holder);
    try {
      await lock.open();
    } catch (error) {
      if (isLevelLocked(error)) return false;
      throw error;
    }
    let server: DynaliteServer | undefined;
    try {
      // A holder killed mid-write may have left dynalite's indexes out of step with its items.
      await repairDynaliteIndexes(this.#paths.data);
      // Serve on a private name first and move it into place once the table exists, so that no
      // client ever reaches a store without its table.
      const temporary = `${this.#paths.socket}.${process.pid}`;
      await rm(temporary, { force: true });
      server = await startDynalite({ path: this.#paths.data, socketPath: temporary });
      await chmod(temporary, 0o600);
      const client = createSocketDynamoDbClient(temporary);
      try {
        await ensureTable(client, EMBEDDED_TABLE);
      } finally {
        client.destroy();
      }
      await rename(temporary, this.#paths.socket);
      this.#held = { server, lock };
      return true;
    } catch (error) {
      await server?.close().catch(() => undefined);
      await lock.close();
      throw error;
    }
  }
}

/** Nobody serves the store yet and this process could not take it over: poll again. */
class NotServedYet extends Error {}
