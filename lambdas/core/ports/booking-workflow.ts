import type { BookingInput, BookingResult } from '../booking/booking-schemas.js';

/**
 * The booking workflow as core/ sees it: run lock → verify → write → release for one booking and
 * answer with the booking, or throw a DomainError (SLOT_TAKEN, LOCK_CONTENDED, PROVIDER_ERROR,
 * CONTENT_REJECTED, …) for a failure the caller can act on, or a plain Error for an internal fault.
 * Implementations: Step Functions Express (`StartSyncExecution`) on AWS, aws-local-stepfunctions
 * running the same booking.asl.json in the embedded runtime.
 */
export interface BookingWorkflow {
  book(input: BookingInput): Promise<BookingResult>;
}

/** One step: JSON in, JSON out, exactly as a Lambda task of the state machine sees it. */
export type BookingStep = (input: unknown) => Promise<unknown>;

/** The five task states' work; the same functions back the Lambdas and the local handlers. */
export interface BookingSteps {
  lock: BookingStep;
  verify: BookingStep;
  write: BookingStep;
  release: BookingStep;
  compensate: BookingStep;
}

export type BookingStepName = keyof BookingSteps;
