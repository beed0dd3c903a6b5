/**
 * The worker thread of runtime/computation-thread.ts: runs each computation it is sent, one at a
 * time, and answers its result or its error as plain data (a class does not cross threads).
 */
import { parentPort } from 'node:worker_threads';
import { isDomainError } from '../core/errors.js';
import { type ComputationName, runComputation } from '../mcp/computations.js';
import type { ComputationReply, ComputationRequest } from './computation-messages.js';

function reply(id: number, name: ComputationName, args: unknown): ComputationReply {
  try {
    return { id, result: runComputation(name, args as never) };
  } catch (error) {
    if (isDomainError(error)) {
      return { id, error: { code: error.code, message: error.message, details: error.details } };
    }
    return { id, error: { message: error instanceof Error ? error.message : String(error) } };
  }
}

parentPort?.on('message', ({ id, name, args }: ComputationRequest) => {
  parentPort?.postMessage(reply(id, name, args));
});
