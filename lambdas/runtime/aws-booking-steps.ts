import { setTimeout as sleep } from 'node:timers/promises';
import { createBookingSteps } from '../core/booking/booking-steps.js';
import { once } from '../core/once.js';
import type { BookingSteps, Logger } from '../core/ports/index.js';
import { systemClock } from '../core/ports/index.js';
import { requireZone } from '../core/time/zones.js';
import { configuredTimezone, requiredEnv } from './aws-environment.js';
import { awsTableStore } from './aws-table-store.js';
import { lockTtlSecondsFrom } from './booking-config.js';
import { DATA_KEY_ARN_ENV, TIMEZONE_ENV } from './environment-names.js';
import { nodeRandom } from './node-random.js';

/**
 * The booking steps as the step Lambdas run them (lambdas/handlers/booking-steps.ts). Every step
 * works on locks and idempotency records in the table, built at once. Calendars (providers and
 * their secrets) and the shadow calendar load on the first call that reaches them: Lock never
 * does, so its cold start loads only the table client and the step code; Verify, Write, Release
 * and Compensate load that part of the graph in their first invocation, as the MCP function loads
 * its tools. Configuration is checked at once, so a misconfigured step fails its cold start.
 *
 * @example
 * const steps = createAwsBookingSteps(process.env, logger);
 * await steps.lock(input);
 */
export function createAwsBookingSteps(env: NodeJS.ProcessEnv, logger: Logger): BookingSteps {
  const defaultTimezone = configuredTimezone(env);
  if (defaultTimezone !== undefined) requireZone(defaultTimezone, TIMEZONE_ENV);
  requiredEnv(env, DATA_KEY_ARN_ENV);
  const store = awsTableStore(env);
  const graph = once(async () => {
    const [{ awsPlatform }, { composeCalendars }] = await Promise.all([
      import('./aws-platform.js'),
      import('./compose-calendars.js'),
    ]);
    const { calendars, shadow } = composeCalendars(awsPlatform(env, logger, { store }));
    return { calendars, shadow };
  });
  return createBookingSteps({
    store,
    clock: systemClock,
    random: nodeRandom,
    pause: (ms) => sleep(ms),
    lockTtlMs: lockTtlSecondsFrom(env) * 1000,
    defaultTimezone,
    logger,
    calendars: { providerFor: async (record) => (await graph()).calendars.providerFor(record) },
    shadow: {
      busyIntervals: async (calendarId, fromMs, toMs) =>
        (await graph()).shadow.busyIntervals(calendarId, fromMs, toMs),
      recordBooking: async (calendarId, booking) => (await graph()).shadow.recordBooking(calendarId, booking),
      freshness: async (calendarId) => (await graph()).shadow.freshness(calendarId),
    },
  });
}
