import { encode } from '@toon-format/toon';
import { readQuickAdd } from '../core/calendar/quick-add.js';
import { fixedClock, type TimeDeps } from '../core/ports/index.js';
import { type ExpandRruleInput, expandRrule } from '../core/time/recurrence/expand-rrule.js';
import { type ResolveDatetimeInput, resolveDatetime } from '../core/time/resolve/resolve-datetime.js';

/**
 * TimeDeps as data, so a computation can run on another thread: the clock is read once, when the
 * call arrives, and the computation sees that instant.
 */
export interface TimeAt {
  /** RFC 3339 instant the call arrived. */
  now: string;
  defaultTimezone: string | undefined;
}

/**
 * The instant to hand a computation for `deps`.
 *
 * @example
 * timeAt({ clock: fixedClock('2026-02-20T15:30:00Z'), defaultTimezone: 'UTC' }).now; // '2026-02-20T15:30:00.000Z'
 */
export function timeAt(deps: TimeDeps): TimeAt {
  return { now: deps.clock.now().toISOString(), defaultTimezone: deps.defaultTimezone };
}

const depsAt = (at: TimeAt): TimeDeps => ({ clock: fixedClock(at.now), defaultTimezone: at.defaultTimezone });

/**
 * The CPU-bound work of the pure time tools, and the encoding of long answers, by name. Each takes and returns plain data (what a
 * worker thread's messages can carry) and is bounded by a WorkBudget; computation-turns.ts decides
 * where it runs.
 */
export const COMPUTATIONS = {
  expandRrule: (input: Omit<ExpandRruleInput, 'budget'>) => expandRrule(input),
  resolveDatetime: ({ at, input }: { at: TimeAt; input: ResolveDatetimeInput }) =>
    resolveDatetime(depsAt(at), input),
  readQuickAdd: ({ at, text, timezone }: { at: TimeAt; text: string; timezone: string | undefined }) =>
    readQuickAdd(depsAt(at), text, timezone),
  /** A long listing's TOON text (tool-result.ts): 2,500 events take 70–95 ms warm, 300 ms cold. */
  encodeToon: (view: Record<string, unknown>) => encode(view),
};

export type ComputationName = keyof typeof COMPUTATIONS;
export type ComputationArgs<N extends ComputationName> = Parameters<(typeof COMPUTATIONS)[N]>[0];
export type ComputationResult<N extends ComputationName> = ReturnType<(typeof COMPUTATIONS)[N]>;

/**
 * Runs computation `name` here, synchronously.
 *
 * @example
 * runComputation('expandRrule', { rrule: 'FREQ=DAILY;COUNT=2', dtstart: '2026-03-07T09:00', timezone: 'UTC' });
 */
export function runComputation<N extends ComputationName>(
  name: N,
  args: ComputationArgs<N>,
): ComputationResult<N> {
  const computation = COMPUTATIONS[name] as (args: ComputationArgs<N>) => ComputationResult<N>;
  return computation(args);
}
