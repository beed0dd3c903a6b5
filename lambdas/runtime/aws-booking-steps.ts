import { setTimeout as sleep } from 'node:timers/promises';
import { bookingParts } from '../core/booking/booking-parts.js';
import { guardStep, type StepWork } from '../core/booking/guard-step.js';
import { isNativeCalendarId } from '../core/calendar/native-calendar-id.js';
import type { BookingStepName, BookingSteps, Logger } from '../core/ports/index.js';
import { systemClock } from '../core/ports/index.js';
import { checkZone, configuredTimezone, requiredEnv } from './aws-environment.js';
import { lazyAwsCalendars } from './aws-lazy-calendars.js';
import { awsTableStore } from './aws-table-store.js';
import { lockTtlSecondsFrom } from './booking-config.js';
import { DATA_KEY_ARN_ENV } from './environment-names.js';
import { nodeRandom } from './node-random.js';

/**
 * Each step's module, imported on its first call: a step function runs one state, so its cold
 * start loads that step's code and nothing of the others' (Verify's conflict search and
 * recurrence expansion, Release's shadow writes).
 */
const STEP_MODULES: Readonly<Record<BookingStepName, () => Promise<StepWork>>> = {
  lock: async () => (await import('../core/booking/lock-step.js')).lock,
  verify: async () => (await import('../core/booking/verify-step.js')).verify,
  write: async () => (await import('../core/booking/write-step.js')).write,
  release: async () => (await import('../core/booking/release-step.js')).release,
  compensate: async () => (await import('../core/booking/booking-compensation.js')).compensate,
};

/**
 * The booking steps as the step Lambdas run them (lambdas/handlers/booking-steps.ts). Every step
 * works on locks and idempotency records in the table, built at once. A calendar's provider and
 * the shadow calendar load on the first call that reaches them — only the registry, the
 * providers and the shadow, never the calendar tools' service, grants or firewall: Lock never
 * does. Configuration is checked at once, so a misconfigured step fails its cold start.
 *
 * @example
 * const steps = createAwsBookingSteps(process.env, logger);
 * await steps.lock(input);
 */
export function createAwsBookingSteps(env: NodeJS.ProcessEnv, logger: Logger): BookingSteps {
  const defaultTimezone = configuredTimezone(env);
  if (defaultTimezone !== undefined) checkZone(defaultTimezone);
  requiredEnv(env, DATA_KEY_ARN_ENV);
  const store = awsTableStore(env);
  const calendars = lazyAwsCalendars(env, store);
  const parts = bookingParts({
    store,
    clock: systemClock,
    random: nodeRandom,
    pause: (ms) => sleep(ms),
    lockTtlMs: lockTtlSecondsFrom(env) * 1000,
    defaultTimezone,
    logger,
    calendars: { providerFor: calendars.providerFor },
    shadow: {
      busyIntervals: async (calendarId, fromMs, toMs) =>
        (await calendars.shadow()).busyIntervals(calendarId, fromMs, toMs),
      // Release on a native calendar records nothing: it need not load the calendars at all.
      recordBooking: async (calendarId, booking) => {
        if (!isNativeCalendarId(calendarId))
          await (await calendars.shadow()).recordBooking(calendarId, booking);
      },
      freshness: async (calendarId) => (await calendars.shadow()).freshness(calendarId),
    },
  });
  const step = (name: BookingStepName) =>
    guardStep(name, logger, async (input) => (await STEP_MODULES[name]())(parts, input));
  return {
    lock: step('lock'),
    verify: step('verify'),
    write: step('write'),
    release: step('release'),
    compensate: step('compensate'),
  };
}
