import type { BookingStep, BookingStepName, Logger } from '../ports/index.js';
import type { BookingParts } from './booking-parts.js';
import { STEP_ERROR, toStepError } from './step-errors.js';

/** A step's work: the parts built once per process, and the state's JSON input. */
export type StepWork = (parts: BookingParts, input: unknown) => Promise<unknown>;

/**
 * One task state as the workflow runs it: throws only {@link BookingStepError}s, whose names
 * booking.asl.json retries or catches, and logs a failure the caller will only see as internal.
 * `run` may load the step's module first (the AWS step functions do, so each loads only its own).
 *
 * @example
 * const lockStep = guardStep('lock', logger, (input) => lock(parts, input));
 */
export function guardStep(
  name: BookingStepName,
  logger: Pick<Logger, 'error'> | undefined,
  run: (input: unknown) => Promise<unknown>,
): BookingStep {
  return async (input) => {
    try {
      return await run(input);
    } catch (error) {
      const stepError = toStepError(error);
      if (stepError.name === STEP_ERROR.internal) logger?.error('booking step failed', { step: name, error });
      throw stepError;
    }
  };
}
