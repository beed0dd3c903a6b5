import { DomainError, type ErrorCode, isDomainError } from '../errors.js';
import { ConditionFailedError } from '../ports/index.js';

/**
 * Errors that cross the edges of the booking workflow. A step throws a {@link BookingStepError}
 * whose `name` is what the state machine's Retry and Catch match (`ErrorEquals`) — locally
 * aws-local-stepfunctions matches the thrown error's name, on AWS the Lambda runtime reports it as
 * the error type — and whose message is a JSON {@link FailurePayload}, so the failure keeps its
 * stable code, its message and its details through Step Functions on either runtime.
 */

/** The `ErrorEquals` names of booking.asl.json. Only `TransientError` is retried. */
export const STEP_ERROR = {
  transient: 'TransientError',
  slotTaken: 'SlotTakenError',
  lockContended: 'LockContendedError',
  provider: 'ProviderError',
  contentRejected: 'ContentRejectedError',
  invalid: 'InvalidBookingError',
  /** The event was created but the booking could not be committed: compensation removes it. */
  unconfirmedWrite: 'UnconfirmedWriteError',
  internal: 'InternalError',
} as const;
export type StepErrorName = (typeof STEP_ERROR)[keyof typeof STEP_ERROR];

/** A failure as it travels: `INTERNAL` marks a fault the caller cannot fix. */
export interface FailurePayload {
  code: ErrorCode | 'INTERNAL';
  message: string;
  details: Record<string, unknown>;
}

/** Codes a booking may fail with that reach the caller as domain errors; anything else is internal. */
export const BOOKING_ERROR_CODES: readonly ErrorCode[] = [
  'SLOT_TAKEN',
  'LOCK_CONTENDED',
  'CONTENT_REJECTED',
  'PROVIDER_ERROR',
  'PROVIDER_RATE_LIMITED',
  'PROVIDER_AUTH_FAILED',
  'INVALID_INPUT',
  'NOT_FOUND',
  'FORBIDDEN',
  'STORAGE_ERROR',
];

/**
 * The error a step throws.
 *
 * @example
 * throw new BookingStepError('SlotTakenError', { code: 'SLOT_TAKEN', message: 'Taken.', details: {} });
 */
export class BookingStepError extends Error {
  constructor(
    name: StepErrorName,
    readonly payload: FailurePayload,
  ) {
    super(JSON.stringify(payload));
    this.name = name;
  }
}

/**
 * LOCK_CONTENDED for a hold that expired or was taken over before the step ran (Verify, Write):
 * nothing was booked, and `details` may name an event Write created, for compensation to remove.
 */
export function holdLost(details: Record<string, unknown> = {}): BookingStepError {
  return new BookingStepError(STEP_ERROR.lockContended, {
    code: 'LOCK_CONTENDED',
    message:
      'The booking took longer than its lock allows (LOCK_TTL_SECS), so it was abandoned; nothing was booked. ' +
      'Retry: the slot is checked again.',
    details: { retry_after_seconds: 1, ...details },
  });
}

const NAME_BY_CODE: Partial<Record<ErrorCode, StepErrorName>> = {
  SLOT_TAKEN: STEP_ERROR.slotTaken,
  LOCK_CONTENDED: STEP_ERROR.lockContended,
  CONTENT_REJECTED: STEP_ERROR.contentRejected,
  PROVIDER_ERROR: STEP_ERROR.provider,
  PROVIDER_RATE_LIMITED: STEP_ERROR.provider,
  PROVIDER_AUTH_FAILED: STEP_ERROR.provider,
  STALE_WRITE: STEP_ERROR.provider,
  // The store failed for longer than its own retries: the state machine retries the step.
  STORAGE_ERROR: STEP_ERROR.transient,
};

/**
 * Error names of the AWS SDK and of Node's network stack that mean "try again": throttling, a
 * 5xx, a dropped connection. Matched by name because core/ must not import the SDK.
 */
const TRANSIENT_NAMES = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);
const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']);

/** Whether an error that is not a domain error is worth retrying as it is. */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const shaped = error as Error & {
    code?: unknown;
    $retryable?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  return (
    TRANSIENT_NAMES.has(error.name) ||
    (typeof shaped.code === 'string' && TRANSIENT_CODES.has(shaped.code)) ||
    Boolean(shaped.$retryable) ||
    (shaped.$metadata?.httpStatusCode ?? 0) >= 500
  );
}

/**
 * Turns whatever a step threw into the error the state machine sees: domain errors by their code,
 * transient infrastructure failures as `TransientError` (retried), anything else as `InternalError`
 * (compensated, then reported as an internal fault).
 */
export function toStepError(error: unknown): BookingStepError {
  if (error instanceof BookingStepError) return error;
  if (isDomainError(error)) {
    return new BookingStepError(NAME_BY_CODE[error.code] ?? STEP_ERROR.invalid, {
      code: error.code,
      message: error.message,
      details: error.details,
    });
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  // A condition failing outside a compare-and-set loop means another writer got there first:
  // running the step again reads the new state.
  if (isTransient(error) || error instanceof ConditionFailedError) {
    return new BookingStepError(STEP_ERROR.transient, { code: 'INTERNAL', message, details: {} });
  }
  return new BookingStepError(STEP_ERROR.internal, { code: 'INTERNAL', message, details: {} });
}

/**
 * Reads a failure back from Step Functions' `Error` and `Cause`. Locally the cause is the thrown
 * error's message (our JSON payload); on AWS a Lambda task's cause is the Lambda error object
 * `{"errorType","errorMessage","trace"}` whose `errorMessage` is that payload. Anything else (a
 * `States.Timeout`, a Lambda service error) is an internal failure named by its error.
 *
 * @example
 * decodeFailure('SlotTakenError', '{"code":"SLOT_TAKEN","message":"Taken.","details":{}}').code; // 'SLOT_TAKEN'
 */
export function decodeFailure(error: string, cause: string | undefined): FailurePayload {
  const parsed = parseJson(cause);
  const inner =
    isRecord(parsed) && typeof parsed.errorMessage === 'string' ? parseJson(parsed.errorMessage) : parsed;
  if (isPayload(inner)) return inner;
  const text = typeof cause === 'string' && cause.length > 0 ? `: ${cause.slice(0, 500)}` : '';
  return { code: 'INTERNAL', message: `${error}${text}`, details: {} };
}

/**
 * What the caller of the workflow gets for a failure: a DomainError for the codes a caller can act
 * on, a plain Error (an internal fault, details for the log only) for anything else.
 *
 * @example
 * failureToError({ code: 'SLOT_TAKEN', message: 'Taken.', details: {} }) instanceof DomainError; // true
 */
export function failureToError(payload: FailurePayload): Error {
  if (payload.code !== 'INTERNAL' && BOOKING_ERROR_CODES.includes(payload.code)) {
    return new DomainError(payload.code, payload.message, payload.details);
  }
  return new Error(`The booking workflow failed: ${payload.message}`);
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPayload(value: unknown): value is FailurePayload {
  return (
    isRecord(value) &&
    typeof value.code === 'string' &&
    typeof value.message === 'string' &&
    isRecord(value.details)
  );
}
