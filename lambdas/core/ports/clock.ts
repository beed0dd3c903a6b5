/** The current instant. Injected so tests can freeze time: core/ never reads the system clock. */
export interface Clock {
  now(): Date;
}

/** A clock that reads the system time; the only place core-facing code may call `Date.now()`. */
export const systemClock: Clock = { now: () => new Date() };

/**
 * A clock frozen at one instant, for tests and for `reference_time`.
 *
 * @example
 * const clock = fixedClock('2026-06-01T09:00:00Z');
 */
export function fixedClock(instant: Date | string): Clock {
  const frozen = new Date(instant);
  return { now: () => new Date(frozen.getTime()) };
}
