import { principalName } from '../core/access/rights.js';
import type { AuditLog, PendingAudit } from '../core/audit/audit-log.js';
import { digestOf, redactedValues, resourceIds } from '../core/audit/audit-record.js';
import type { Clock } from '../core/ports/index.js';
import type { ToolCall, ToolCallHook, ToolCallOutcome } from './tool-call-hooks.js';
import { refusalOf } from './tool-refusal.js';

const CLIENT_CHARS = 80;

function completionOf(outcome: ToolCallOutcome) {
  if ('fault' in outcome) return { outcome: 'failed' as const };
  const { result } = outcome;
  if (result.isError) {
    const code = refusalOf(result)?.code;
    return { outcome: 'refused' as const, ...(code ? { code } : {}) };
  }
  return {
    outcome: 'ok' as const,
    output_digest: digestOf(result.structuredContent),
    output_resource_ids: resourceIds(result.structuredContent),
  };
}

/**
 * Records every call of a write tool (its annotations say `readOnlyHint: false`) in the audit
 * log: a pending record before the tool runs — if it cannot be written, the tool does not run —
 * and its completion after, with the outcome. Read-only tools change nothing and leave nothing.
 *
 * @example
 * const deps = { ...runtime, hooks: [auditHook(new AuditLog({ store, clock }), clock)] };
 */
export function auditHook(log: AuditLog, clock: Clock): ToolCallHook {
  const pending = new WeakMap<ToolCall, PendingAudit>();
  return {
    async beforeCall(call) {
      if (call.annotations?.readOnlyHint !== false) return;
      pending.set(
        call,
        await log.begin({
          at: clock.now().toISOString(),
          principal: principalName(call.principal),
          client: (call.client ?? 'unknown').slice(0, CLIENT_CHARS),
          source: 'tool',
          action: call.tool,
          request_id: call.requestId ?? crypto.randomUUID(),
          input_digest: digestOf(call.arguments),
          input_values: redactedValues(call.arguments),
          resource_ids: resourceIds(call.arguments),
        }),
      );
    },
    async afterCall(call, outcome) {
      const record = pending.get(call);
      if (!record) return;
      await log.complete(record, { completed_at: clock.now().toISOString(), ...completionOf(outcome) });
    },
  };
}
