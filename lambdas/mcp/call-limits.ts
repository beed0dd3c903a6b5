import { CallStoppedError, CallWork, DEFAULT_CALL_WORK_ITEMS } from '../core/call-work.js';

/** How much one call (one HTTP request: a batch shares it) may do, and for how long. */
export interface CallLimits {
  /** Wall-clock time before the call stops with WORK_LIMIT_EXCEEDED. */
  deadlineMs: number;
  /** Items read or expanded (see CallWork). */
  workItems: number;
}

/** 30 s: an MCP client's own request timeout is usually 60 s; past 30 s an agent is better told to narrow. */
export const DEFAULT_CALL_LIMITS: CallLimits = { deadlineMs: 30_000, workItems: DEFAULT_CALL_WORK_ITEMS };

const NARROW_ANY = 'Narrow the call: a shorter window, fewer calendars or results, or a narrower query.';

function deadlinePassed(deadlineMs: number): CallStoppedError {
  return new CallStoppedError(
    'WORK_LIMIT_EXCEEDED',
    `This call ran past its deadline (${deadlineMs / 1000} s), so it stopped. ${NARROW_ANY}`,
    { bound: deadlineMs, unit: 'milliseconds', narrow: NARROW_ANY },
  );
}

/**
 * Starts the work of one call, or of one HTTP request: `limits.workItems` to spend, and a signal
 * that fires when `cancelled` does (the client went away, or sent notifications/cancelled) or the
 * deadline passes. The core checks it between items (CallWork.pass): it never reads the clock
 * itself. `finish` clears the deadline's timer once the answer is out.
 *
 * @example
 * const { work, finish } = startCallWork(deps.callLimits, request.signal);
 * try { return await serve({ ...context, work }); } finally { finish(); }
 */
export function startCallWork(
  limits: CallLimits = DEFAULT_CALL_LIMITS,
  cancelled?: AbortSignal,
): { work: CallWork; finish(): void } {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(deadlinePassed(limits.deadlineMs)), limits.deadlineMs);
  // A pending deadline never keeps a process (stdio, a test) alive.
  timer.unref?.();
  const onCancelled = () => stop.abort(cancelled?.reason);
  if (cancelled?.aborted) onCancelled();
  else cancelled?.addEventListener('abort', onCancelled, { once: true });
  return {
    work: new CallWork(limits.workItems, stop.signal),
    finish: () => {
      clearTimeout(timer);
      cancelled?.removeEventListener('abort', onCancelled);
    },
  };
}
