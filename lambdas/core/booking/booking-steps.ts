import type { BookingSteps } from '../ports/index.js';
import { compensate } from './booking-compensation.js';
import { type BookingStepsDeps, bookingParts } from './booking-parts.js';
import { guardStep } from './guard-step.js';
import { lock } from './lock-step.js';
import { release } from './release-step.js';
import { verify } from './verify-step.js';
import { write } from './write-step.js';

/**
 * The work of the booking workflow's task states, as plain async functions over JSON, all loaded
 * at once: the embedded runtime's local handlers and the tests use it. On AWS each state is its own
 * Lambda, which loads only its step's module (runtime/aws-booking-steps.ts). Every step validates
 * its input and output (zod) and throws only BookingStepErrors, whose names booking.asl.json
 * retries or catches.
 *
 * @example
 * const steps = createBookingSteps({ store, clock, random, pause, calendars, shadow, lockTtlMs: 30_000, defaultTimezone });
 * const lock = await steps.lock(input);
 */
export function createBookingSteps(deps: BookingStepsDeps): BookingSteps {
  const parts = bookingParts(deps);
  return {
    lock: guardStep('lock', deps.logger, (input) => lock(parts, input)),
    verify: guardStep('verify', deps.logger, (input) => verify(parts, input)),
    write: guardStep('write', deps.logger, (input) => write(parts, input)),
    release: guardStep('release', deps.logger, (input) => release(parts, input)),
    compensate: guardStep('compensate', deps.logger, (input) => compensate(parts, input)),
  };
}
