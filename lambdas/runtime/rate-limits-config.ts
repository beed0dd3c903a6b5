import { isDomainError } from '../core/errors.js';
import { parseRate, type RateLimits } from '../core/limits/rate.js';
import { EXPENSIVE_RATE_LIMIT_ENV, RATE_LIMIT_ENV } from './environment-names.js';

/** Budgets when nothing is configured: generous for an agent, a stop for a runaway loop. */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  requests: { capacity: 600, periodSeconds: 60 },
  expensive: { capacity: 60, periodSeconds: 60 },
};

/**
 * The server's per-key budgets from `MERIDIAN_RATE_LIMIT` and `MERIDIAN_EXPENSIVE_RATE_LIMIT`
 * (`COUNT/PERIOD` or `off`), each falling back to DEFAULT_RATE_LIMITS; a bad value stops start-up.
 *
 * @example
 * rateLimitsFrom({ MERIDIAN_RATE_LIMIT: '120/min' }).requests; // { capacity: 120, periodSeconds: 60 }
 */
export function rateLimitsFrom(env: NodeJS.ProcessEnv): RateLimits {
  const read = (name: string) => {
    const text = env[name]?.trim();
    if (!text) return undefined;
    try {
      return parseRate(text, name);
    } catch (error) {
      // Start-up errors are plain: there is no caller to hand a DomainError to.
      throw isDomainError(error) ? new Error(error.message) : error;
    }
  };
  return {
    requests: read(RATE_LIMIT_ENV) ?? DEFAULT_RATE_LIMITS.requests,
    expensive: read(EXPENSIVE_RATE_LIMIT_ENV) ?? DEFAULT_RATE_LIMITS.expensive,
  };
}
