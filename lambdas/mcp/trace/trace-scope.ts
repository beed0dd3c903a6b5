import { AsyncLocalStorage } from 'node:async_hooks';
import type { TraceContext } from './trace-context.js';

/**
 * The trace context of the request being served, wherever in its async work a log line is
 * written: the loggers built once per process (the platform's, the tools' parts) read it here,
 * so no per-request logger has to be threaded through every part. AsyncLocalStorage, because
 * `meridian serve` serves requests concurrently in one process, where appending keys to one
 * shared logger would stamp one request's trace on another's lines.
 */
const scope = new AsyncLocalStorage<TraceContext>();

/**
 * Runs `work` as the request with trace context `context` (none: as a request without one).
 *
 * @example
 * await inTraceScope(traceContextOf(message), () => serve(message));
 */
export function inTraceScope<T>(context: TraceContext | undefined, work: () => T): T {
  return context ? scope.run(context, work) : scope.exit(work);
}

/**
 * The keys a log line of the current request carries: `traceparent`, `trace_id` and, when
 * given, `tracestate`; none outside a request or for a request without a (valid) traceparent.
 *
 * @example
 * logger.info(message, { ...traceLogKeys(), ...extra });
 */
export function traceLogKeys(): Record<string, string> {
  const context = scope.getStore();
  if (!context) return {};
  return {
    traceparent: context.traceparent,
    trace_id: context.traceId,
    ...(context.tracestate === undefined ? {} : { tracestate: context.tracestate }),
  };
}
