import { parseToken } from '../../core/access/api-key-token.js';
import { keyPrincipalName, principalName } from '../../core/access/rights.js';
import { isDomainError } from '../../core/errors.js';
import type { PrefetchedBudget, RequestCost } from '../../core/limits/request-limiter.js';
import { METRIC } from '../../core/metric-names.js';
import type { McpHttpDeps, ToolContext } from '../deps.js';
import { EXPENSIVE_TOOLS } from '../expensive-tools.js';
import { json } from './http-responses.js';

/** The JSON-RPC code of a refusal by a rate limit: server-defined range, as the transport's own. */
export const RATE_LIMITED_JSON_RPC_CODE = -32029;

type Message = { method?: unknown; params?: { name?: unknown }; id?: unknown };

/** What a request spends: one per request message (a batch: each), and each expensive tools/call. */
export function requestCost(message: unknown): RequestCost {
  const messages = (Array.isArray(message) ? message : [message]) as Message[];
  const requests = messages.filter((m) => m && typeof m === 'object' && 'id' in m).length;
  const expensive = messages.filter(
    (m) =>
      m?.method === 'tools/call' && typeof m.params?.name === 'string' && EXPENSIVE_TOOLS.has(m.params.name),
  ).length;
  return { requests: Math.max(1, requests), expensive };
}

/**
 * Starts reading the budgets of the key a bearer token names, beside the key's own lookup, when
 * this instance has not seen that key yet (RequestLimiter.prefetch): a cold start's first request
 * then waits for the key's lookup alone (with a roomy budget, its spend is written beside the
 * call). Undefined without a limiter or a key-shaped token.
 */
export function prefetchBudget(deps: McpHttpDeps, token: string | undefined): PrefetchedBudget | undefined {
  const keyId = token === undefined ? undefined : parseToken(token)?.keyId;
  return deps.limits && keyId ? deps.limits.prefetch(keyPrincipalName(keyId)) : undefined;
}

/** Admitted: the write of its spend, to await before answering (a failure is only logged). */
export type LimitVerdict = { refused: Response } | { settled: Promise<void> };

const ADMITTED: LimitVerdict = { settled: Promise.resolve() };

/**
 * Spends the request's cost from its caller's budgets before any of it runs, or answers HTTP 429
 * with `Retry-After` and a JSON-RPC error naming the limit (`error.data`: code RATE_LIMITED,
 * limit, retryAfterSeconds, rate) — so an over-budget call is refused whole, never half done.
 * Always admitted when no limiter is configured, and for the local owner (who owns the machine).
 * A store failure propagates (the router answers 503): an unchecked limit admits nothing.
 */
export async function checkRateLimit(
  deps: McpHttpDeps,
  context: ToolContext,
  message: unknown,
  prefetched?: PrefetchedBudget,
): Promise<LimitVerdict> {
  const { principal } = context;
  if (!deps.limits || principal.kind === 'local-owner') return ADMITTED;
  try {
    // A read begun for another caller than the one authenticated is ignored (admit checks).
    return await deps.limits.admit(
      principalName(principal),
      requestCost(message),
      principal.limits,
      prefetched,
    );
  } catch (error) {
    if (!isDomainError(error, 'RATE_LIMITED')) throw error;
    deps.metrics?.publish({}, [{ name: METRIC.limitRefusals, unit: 'Count', value: 1 }]);
    const retryAfter = String(error.details.retryAfterSeconds ?? 1);
    const id = Array.isArray(message) ? null : ((message as Message | null)?.id ?? null);
    const refused = json(
      429,
      {
        jsonrpc: '2.0',
        id,
        error: {
          code: RATE_LIMITED_JSON_RPC_CODE,
          message: error.message,
          data: { code: error.code, ...error.details },
        },
      },
      { 'retry-after': retryAfter },
    );
    return { refused };
  }
}
