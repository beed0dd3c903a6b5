import type { Clock } from './clock.js';

/** What the time tools need: a clock and the deployment's default zone, if one is configured. */
export interface TimeDeps {
  clock: Clock;
  /** IANA zone from configuration (`MERIDIAN_TIMEZONE`); undefined when none was set. */
  defaultTimezone: string | undefined;
}
