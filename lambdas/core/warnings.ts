/**
 * The one list of warning codes an answer may carry. A warning accompanies a write that was done
 * as RFC 5545 and the caller's words allow, but not exactly as written or not as the caller may
 * expect: the agent reads the code and decides whether to tell the person or correct it.
 */
export const WARNING_CODES = [
  /** The event's start lies before now (a backfill, or a date read as today that meant later). */
  'TIME_IN_PAST',
  /** A wall time did not exist (a spring-forward gap): the start moved forward by the gap. */
  'TIME_SHIFTED_BY_DST_GAP',
] as const;

export type WarningCode = (typeof WARNING_CODES)[number];

/** A warning in an answer: a stable code to act on and a message that says what happened. */
export interface Warning {
  code: WarningCode;
  message: string;
  /** The input field it is about, when there is one. */
  field?: string;
}

/** `{ warnings }` when there are any, else nothing: answers stay as they were when all is well. */
export function warningsField(warnings: readonly Warning[]): { warnings?: Warning[] } {
  return warnings.length === 0 ? {} : { warnings: [...warnings] };
}
