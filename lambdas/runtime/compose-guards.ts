import { RequestLimiter } from '../core/limits/request-limiter.js';
import type { Clock, DocumentStore } from '../core/ports/index.js';
import type { McpHttpDeps } from '../mcp/deps.js';
import { rateLimitsFrom } from './rate-limits-config.js';

/**
 * What stands between an admitted caller and the tools, from the environment: its request budgets
 * (MERIDIAN_RATE_LIMIT, MERIDIAN_EXPENSIVE_RATE_LIMIT). Both runtimes spread it into their HTTP
 * deps, so `serve` and the Lambda refuse alike.
 *
 * @example
 * const deps = { ...runtime, ...requestGuards({ store, clock }, process.env) };
 */
export function requestGuards(
  platform: { store: DocumentStore; clock: Clock },
  env: NodeJS.ProcessEnv,
): Pick<McpHttpDeps, 'limits'> {
  const defaults = rateLimitsFrom(env);
  const limited = defaults.requests !== 'off' || defaults.expensive !== 'off';
  // With both off no key can have a budget of its own either: nothing to check, nothing written.
  return limited
    ? { limits: new RequestLimiter({ store: platform.store, clock: platform.clock, defaults }) }
    : {};
}
