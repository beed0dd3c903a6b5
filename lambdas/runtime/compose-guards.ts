import { AuditLog } from '../core/audit/audit-log.js';
import { RequestLimiter } from '../core/limits/request-limiter.js';
import type { Clock, DocumentStore, MetricsSink } from '../core/ports/index.js';
import { auditHook } from '../mcp/audit-hook.js';
import type { McpHttpDeps } from '../mcp/deps.js';
import { toolCallMetrics } from '../mcp/tool-call-metrics.js';
import type { Environment } from './environment.js';

/** What {@link requestGuards} adds to a runtime: limits and hooks for MCP, the log for the CLI. */
export type RequestGuards = Pick<McpHttpDeps, 'limits' | 'hooks' | 'metrics'> & {
  /** The audit log the CLI's own changes (keys, grants) append to; absent with MERIDIAN_AUDIT=off. */
  audit?: AuditLog;
};

/**
 * What stands between an admitted caller and the tools, from the environment: its request budgets
 * (MERIDIAN_RATE_LIMIT, MERIDIAN_EXPENSIVE_RATE_LIMIT) and the audit log of every write
 * (MERIDIAN_AUDIT=off turns it off, for benchmarks). Both runtimes spread it into their deps, so
 * `serve`, stdio, the CLI and the Lambda refuse and record alike. Given `metrics` (the Lambda's
 * EMF sink), its hook runs first, so a call's latency spans the audit record too, and the HTTP
 * layer counts rate-limit refusals into it.
 *
 * @example
 * const deps = { ...runtime, ...requestGuards({ store, clock }, environment) };
 */
export function requestGuards(
  platform: { store: DocumentStore; clock: Clock },
  settings: Pick<Environment, 'rateLimits' | 'audit'>,
  metrics?: MetricsSink,
): RequestGuards {
  const { store, clock } = platform;
  const defaults = settings.rateLimits;
  const limited = defaults.requests !== 'off' || defaults.expensive !== 'off';
  const audit = settings.audit ? new AuditLog({ store, clock }) : undefined;
  const hooks = [...(metrics ? [toolCallMetrics(metrics)] : []), ...(audit ? [auditHook(audit, clock)] : [])];
  return {
    // With both off no key can have a budget of its own either: nothing to check, nothing written.
    ...(limited ? { limits: new RequestLimiter({ store, clock, defaults }) } : {}),
    ...(audit ? { audit } : {}),
    ...(hooks.length > 0 ? { hooks } : {}),
    ...(metrics ? { metrics } : {}),
  };
}
