import { randomUUID } from 'node:crypto';
import { principalName } from '../core/access/rights.js';
import type { IdempotencyRecords } from '../core/booking/idempotency.js';
import type { Logger } from '../core/ports/index.js';
import type { ToolContext } from './deps.js';
import { boundedString } from './schemas.js';

/**
 * The `idempotency_key` of every write tool that declares `idempotencyKey: true` (and of
 * book_slot, which keys its bookings itself), described once:
 * an agent whose answer was lost (a dropped connection, a timeout) sends the call again with the
 * same key and gets the first answer instead of a second event, memory entry or project.
 */
export const idempotencyKeyField = boundedString(256)
  .optional()
  .describe('A retry with this key and the same arguments returns the first answer.');

/** Arguments that change how an answer is shown, not what is written: a retry may differ in them. */
const PRESENTATION_ONLY = new Set(['idempotency_key', 'format']);

/**
 * Runs a write tool once per (principal, tool, idempotency_key) through the idempotency records
 * book_slot uses: the first call claims the key, runs, and records its answer; a retry with the
 * same arguments gets that answer back without running (a retry while the first still runs gets
 * LOCK_CONTENDED); the same key with other arguments is refused (INVALID_INPUT). A call that
 * fails forgets its claim, so that its retry runs afresh. Without a key, `run` simply runs.
 *
 * @example
 * const output = await runOnce(await deps.idempotency(), { tool: 'create_event', args, context, logger }, () => tool.run(…));
 */
export async function runOnce(
  records: IdempotencyRecords,
  call: { tool: string; args: Record<string, unknown>; context: ToolContext; logger: Logger },
  run: () => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const clientKey = call.args.idempotency_key;
  if (typeof clientKey !== 'string') return run();
  // Built by the records, so that a cold start that calls no tool loads none of their code.
  const keyed = records.keyedCall({
    tool: call.tool,
    principal: principalName(call.context.principal),
    clientKey,
    args: call.args,
    owner: randomUUID(),
    ignored: PRESENTATION_ONLY,
  });
  const claimed = await records.claimCall(keyed);
  if (claimed.kind === 'replay') return claimed.result;
  let output: Record<string, unknown>;
  try {
    output = await run();
  } catch (error) {
    await records.clearCall(keyed).catch(() => undefined);
    throw error;
  }
  // As JSON would carry it (no undefined fields), which is what the table stores and replays.
  const result = JSON.parse(JSON.stringify(output)) as Record<string, unknown>;
  try {
    await records.completeCall(keyed, result);
  } catch (error) {
    // The write happened: answer it. The key stays claimed until its lease ends, then a retry runs again.
    call.logger.warn('keyed call: recording its answer failed', { tool: call.tool, error });
  }
  return output;
}
