/**
 * Stable, machine-readable codes for failures a caller can fix. Boundaries (the MCP layer,
 * handlers) decide by `code`, never by matching message text.
 */
export const ERROR_CODES = [
  'INVALID_INPUT',
  'INVALID_TIMEZONE',
  'INVALID_DATETIME',
  'INVALID_DURATION',
  'INVALID_RRULE',
  'UNRECOGNIZED_EXPRESSION',
  'OUT_OF_RANGE',
  'NOT_FOUND',
  'STALE_WRITE',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'PROVIDER_ERROR',
  'PROVIDER_RATE_LIMITED',
  'PROVIDER_AUTH_FAILED',
  'SLOT_TAKEN',
  'LOCK_CONTENDED',
  /** Every item of a batch failed, for different reasons (each item's code is in the details). */
  'BATCH_FAILED',
  'CONTENT_REJECTED',
  'INVALID_QUERY',
  'INVALID_PROPERTY',
  'INVALID_VALUE',
  'TOO_MANY_OCCURRENCES',
  'STORAGE_ERROR',
  /** Project memory (issue 10): the project or branch named does not exist. */
  'PROJECT_NOT_FOUND',
  'BRANCH_NOT_FOUND',
  /** A conditional change lost a race (`if_version` mismatch, memory restored meanwhile). */
  'CONFLICT',
  /** A remote (cloud sync) could not be reached. */
  'NETWORK_ERROR',
  /** A feature this deployment's operator has not set up (cloud sync without a bucket); the message says how. */
  'NOT_CONFIGURED',
  /**
   * A call needs more work than one call may do (items read or expanded, steps, its deadline); the
   * details give the bound and how to narrow the call. Issue 18 calls this meaning TOO_MUCH_WORK.
   */
  'WORK_LIMIT_EXCEEDED',
  /** The call was stopped because its client went away (or cancelled it); nobody reads the answer. */
  'CANCELLED',
  /** A snapshot failed its integrity checks: nothing was restored from it. */
  'INTEGRITY_FAILED',
  /** A snapshot is intact but in a format a newer version wrote: nothing was restored from it. */
  'UNSUPPORTED_FORMAT',
  /** A daily allowance (cloud sync uploads or downloads) is used up. */
  'QUOTA_EXCEEDED',
  /**
   * The caller's request budget (per key or principal) is spent for now; the details name the
   * limit and say when to retry (`retryAfterSeconds`). Over HTTP the answer is a 429.
   */
  'RATE_LIMITED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * A failure caused by the caller's input or the state of the domain, never by a bug.
 * The message says what to do next; `details` carries structured hints (e.g. suggestions).
 *
 * @example
 * throw new DomainError('INVALID_TIMEZONE', 'Unknown time zone "Mars/Olympus".', { suggestions: [] });
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True when `error` is a {@link DomainError}, optionally with one specific code. */
export function isDomainError(error: unknown, code?: ErrorCode): error is DomainError {
  return error instanceof DomainError && (code === undefined || error.code === code);
}
