import type { BookingStepName, BookingSteps, Logger } from '../core/ports/index.js';
import { awsPlatform } from './aws-platform.js';
import { type Environment, requireSettings } from './environment.js';
import { wireParts } from './wiring.js';

const STEP_NAMES: readonly BookingStepName[] = ['lock', 'verify', 'write', 'release', 'compensate'];

/**
 * The booking steps as the step Lambdas run them (lambdas/handlers/booking-steps.ts), from the
 * wiring table: the locks and idempotency records on the first step, and a calendar's provider
 * and the shadow calendar on the first step that reaches them (Lock never does). Configuration is
 * checked at once, so a misconfigured step fails its cold start.
 *
 * @example
 * const steps = createAwsBookingSteps(processEnvironment(), logger);
 * await steps.lock(input);
 */
export function createAwsBookingSteps(environment: Environment, logger: Logger): BookingSteps {
  requireSettings(environment, ['dataKeyArn']);
  const part = wireParts(awsPlatform(environment, logger));
  return Object.fromEntries(
    STEP_NAMES.map((name) => [name, async (input: unknown) => (await part('bookingSteps'))[name](input)]),
  ) as unknown as BookingSteps;
}
