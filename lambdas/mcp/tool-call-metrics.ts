import { METRIC } from '../core/metric-names.js';
import type { MetricsSink } from '../core/ports/index.js';
import type { ToolCall, ToolCallHook, ToolCallOutcome } from './tool-call-hooks.js';
import { refusalOf } from './tool-refusal.js';

/** The outcome of a call as a dimension value: `ok`, the DomainError code the client got, or FAULT (-32603). */
export function outcomeCode(outcome: ToolCallOutcome): string {
  if ('fault' in outcome) return 'FAULT';
  if (!outcome.result.isError) return 'ok';
  // Read back as the CLI reads it; an error text that is not one of ours counts as ERROR.
  return refusalOf(outcome.result)?.code ?? 'ERROR';
}

/**
 * Calls and latency by tool and outcome, and service-wide calls and faults (what the fault-rate
 * alarm divides), from every authorised tools/call — refusals by other hooks included. (Rate-limit
 * refusals happen before any hook, in the HTTP layer, which counts them: rate-limit-refusal.ts.) Tool
 * names and codes are closed sets: nothing the caller typed becomes a dimension.
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
      const start = started.get(call);
      metrics.publish({ tool: call.tool, outcome: code }, [
        { name: METRIC.toolCalls, unit: 'Count', value: 1 },
        ...(start === undefined
          ? []
          : [{ name: METRIC.toolLatency, unit: 'Milliseconds' as const, value: now() - start }]),
      ]);
      metrics.publish({}, [
        { name: METRIC.calls, unit: 'Count', value: 1 },
        { name: METRIC.faults, unit: 'Count', value: code === 'FAULT' ? 1 : 0 },
      ]);
    },
  };
}
