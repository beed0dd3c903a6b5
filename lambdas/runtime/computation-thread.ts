import { Worker } from 'node:worker_threads';
import { DomainError } from '../core/errors.js';
import type { Logger } from '../core/ports/index.js';
import type { ComputationRunner } from '../mcp/computation-turns.js';
import type { ComputationReply, ComputationRequest } from './computation-messages.js';

/** A {@link ComputationRunner} on a worker thread of its own, which `close` stops. */
export interface ComputationThread extends ComputationRunner {
  close(): Promise<void>;
}

// The CLI runs from source through tsx, whose module hooks Node 20 does not pass on to worker
// threads: the worker registers tsx itself before it imports its module.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.tsx) (await import(workerData.tsx)).register();
  await import(workerData.entry);
})();`;

type Pending = { resolve: (result: never) => void; reject: (error: unknown) => void };

function errorOf(reply: Extract<ComputationReply, { error: unknown }>): Error {
  const { code, message, details } = reply.error;
  return code === undefined ? new Error(message) : new DomainError(code, message, details);
}

/**
 * Starts the thread that runs the time tools' computations for `meridian serve`, so that they
 * never hold the event loop that answers requests (see computation-turns.ts for the measurements).
 * Jobs run one at a time, in arrival order. The thread first loads the time core (about 1 s of
 * CPU); jobs sent meanwhile wait for it. If it dies, the calls it held fail as internal errors
 * and the next call starts a new one.
 *
 * @example
 * const thread = startComputationThread(logger);
 * computeOn(thread);
 * // … later
 * await thread.close();
 */
export function startComputationThread(logger?: Logger): ComputationThread {
  const pending = new Map<number, Pending>();
  let nextId = 0;

  const spawn = () => {
    const started = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: {
        tsx: FROM_SOURCE ? import.meta.resolve('tsx/esm/api') : undefined,
        entry: new URL(`./computation-worker${FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url).href,
      },
    });
    started.on('message', (reply: ComputationReply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if ('error' in reply) waiting?.reject(errorOf(reply));
      else waiting?.resolve(reply.result as never);
    });
    // An 'error' (an uncaught exception in the thread, or a thread that could not load) is
    // followed by 'exit', which fails the calls it held; the operator needs the cause.
    started.on('error', (error) =>
      logger?.error(
        'The computation thread failed; time tool calls it held fail, the next starts a new one',
        {
          error: error instanceof Error ? error.message : String(error),
        },
      ),
    );
    started.on('exit', (code) => {
      if (worker === started) worker = undefined;
      for (const [id, waiting] of pending) {
        pending.delete(id);
        waiting.reject(new Error(`The computation thread stopped (exit code ${code}).`));
      }
    });
    // The server's own handles decide when the process may exit, not this thread.
    started.unref();
    return started;
  };

  let worker: Worker | undefined = spawn();
  return {
    run(name, args) {
      const id = nextId++;
      const thread = worker ?? spawn();
      worker = thread;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        thread.postMessage({ id, name, args } satisfies ComputationRequest);
      });
    },
    async close() {
      const stopping = worker;
      worker = undefined;
      await stopping?.terminate();
    },
  };
}
