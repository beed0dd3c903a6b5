import { fixedClock, type TimeDeps } from '../../lambdas/core/ports/index.js';

/** Time dependencies frozen at `now`, with an optional configured default zone. */
export function frozenTimeDeps(now: string, defaultTimezone?: string): TimeDeps {
  return { clock: fixedClock(now), defaultTimezone };
}
