import type { BookingParts } from '../core/booking/booking-parts.js';
import { guardStep, type StepWork } from '../core/booking/guard-step.js';
import type { BookingStepName, BookingSteps, Logger } from '../core/ports/index.js';

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
 * The booking workflow's task states over one set of parts (wiring.ts builds them once): what the
 * step Lambdas run, and what the embedded runtime's local workflow runs. Every step validates its
 * input and output and throws only BookingStepErrors, whose names booking.asl.json matches.
 *
 * @example
 * const steps = bookingStepsOver({ deps, locks, idempotency }, logger);
 * await steps.lock(input);
 */
export function bookingStepsOver(parts: BookingParts, logger: Pick<Logger, 'error'>): BookingSteps {
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
