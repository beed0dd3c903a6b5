import type { MetricsSink } from '../core/ports/index.js';
import type { ToolCall, ToolCallHook, ToolCallOutcome } from './tool-call-hooks.js';

/** Metric names, shared with the stack's alarms and dashboard (lib/constructs/operations-alarms.ts). */
export const TOOL_METRICS = {
  /** One per tools/call; dimensions `tool` and `outcome` (`ok`, the error code, or `FAULT`). */
  calls: 'ToolCalls',
  /** Milliseconds from the hooks' start to the outcome; dimension `tool`. */
  latency: 'ToolLatency',
  /** One per call that did not succeed; dimension `code` (error code, or `FAULT`): the error-rate alarm's numerator. */
  errors: 'ToolErrors',
} as const;

/** The outcome of a call as a dimension value: `ok`, the DomainError code the client got, or FAULT (-32603). */
export function outcomeCode(outcome: ToolCallOutcome): string {
  if ('fault' in outcome) return 'FAULT';
  if (!outcome.result.isError) return 'ok';
  const text = outcome.result.content?.find((part) => part.type === 'text');
  try {
    const code = (JSON.parse(text && 'text' in text ? text.text : '{}') as { error?: { code?: unknown } })
      .error?.code;
    return typeof code === 'string' ? code : 'ERROR';
  } catch {
    return 'ERROR';
  }
}

/**
 * Calls, latency and errors by tool and code, from every authorised tools/call (refusals by other
 * hooks, such as a rate limit, included). Tool names and codes are closed sets, so the dimensions'
 * cardinality is bounded; nothing the caller typed becomes a dimension.
 */
export function toolCallMetrics(
  metrics: MetricsSink,
  now: () => number = () => performance.now(),
): ToolCallHook {
  const started = new WeakMap<ToolCall, number>();
  return {
    beforeCall: (call) => {
      started.set(call, now());
    },
    afterCall: (call, outcome) => {
      const code = outcomeCode(outcome);
      metrics.record(TOOL_METRICS.calls, 'Count', 1, { tool: call.tool, outcome: code });
      const start = started.get(call);
      if (start !== undefined)
        metrics.record(TOOL_METRICS.latency, 'Milliseconds', now() - start, { tool: call.tool });
      if (code !== 'ok') metrics.record(TOOL_METRICS.errors, 'Count', 1, { code });
    },
  };
}
