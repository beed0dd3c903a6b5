import type { AuditLog } from '../../core/audit/audit-log.js';
import { digestOf, redactedValues, resourceIds } from '../../core/audit/audit-record.js';
import { isDomainError } from '../../core/errors.js';
import type { Clock } from '../../core/ports/index.js';

/** The CLI commands that change state; every other (`keys list`, `grants list`) only reads. */
const CHANGES = new Set([
  'keys create',
  'keys revoke',
  'keys toolsets',
  'keys limits',
  'grants set',
  'users add',
  'users remove',
  'users grant',
  'users admin',
  'clients revoke',
  'sessions revoke',
]);

/**
 * Runs a CLI admin command, recording it in the audit log when it changes state: pending before,
 * completed after with its outcome, as a tool call is (mcp/audit-hook.ts). The principal is the
 * local owner (who holds the data dir, or the AWS credentials with `--aws`). `run` answers the ids
 * it touched (a created key's id), never a secret.
 *
 * @example
 * await auditedCommand(runtime, ['keys', 'revoke', keyId], () => keysCommand(runtime, rest, flags, out));
 */
export async function auditedCommand(
  runtime: { audit?: AuditLog; clock: Clock },
  words: readonly string[],
  run: () => Promise<unknown>,
): Promise<void> {
  const action = words.slice(0, 2).join(' ');
  if (!runtime.audit || !CHANGES.has(action)) {
    await run();
    return;
  }
  const args = Object.fromEntries(words.slice(2).map((word, index) => [`arg${index + 1}_id`, word]));
  const pending = await runtime.audit.begin({
    at: runtime.clock.now().toISOString(),
    principal: 'local-owner',
    client: 'cli',
    source: 'cli',
    action,
    request_id: crypto.randomUUID(),
    input_digest: digestOf(words),
    input_values: redactedValues(args),
    resource_ids: words.slice(2, 4),
  });
  const completedAt = () => runtime.clock.now().toISOString();
  try {
    const answer = await run();
    await runtime.audit.complete(pending, {
      completed_at: completedAt(),
      outcome: 'ok',
      output_digest: digestOf(answer),
      output_resource_ids: resourceIds(answer),
    });
  } catch (error) {
    await runtime.audit.complete(pending, {
      completed_at: completedAt(),
      ...(isDomainError(error) ? { outcome: 'refused', code: error.code } : { outcome: 'failed' }),
    });
    throw error;
  }
}
