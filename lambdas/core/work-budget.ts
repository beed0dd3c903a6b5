import { DomainError } from './errors.js';

/**
 * How much computation one call may do, counted in deterministic steps rather than measured
 * time, so the same input always gets the same answer whatever the machine's load. A step is
 * calibrated to a few microseconds (one period rrule examines, one candidate instance, one
 * attempt to read a phrase); {@link DEFAULT_WORK_STEPS} keeps one call near 100 ms of CPU, so one
 * request never holds the event loop (and every other request, /health included) for longer.
 */
export const DEFAULT_WORK_STEPS = 20_000;

/**
 * A per-call allowance of work steps. Loops that cannot bound their own length (recurrence
 * expansion, phrase search) call `spend`, which throws WORK_LIMIT_EXCEEDED once the allowance
 * is gone; the error says which task ran out and what the caller can change.
 *
 * @example
 * const budget = new WorkBudget('Expanding "FREQ=SECONDLY;BYMONTH=2"', 'Narrow the window.');
 * budget.spend(); // throws WORK_LIMIT_EXCEEDED on the 20,001st step
 */
export class WorkBudget {
  #spent = 0;

  constructor(
    /** What is being computed, for the message ("Expanding the rule …"). */
    readonly task: string,
    /** What the caller can change to need less work. */
    readonly advice: string,
    readonly limit: number = DEFAULT_WORK_STEPS,
  ) {}

  /** Records `steps` of work; throws WORK_LIMIT_EXCEEDED when the allowance is exceeded. */
  spend(steps = 1): void {
    this.#spent += steps;
    if (this.#spent > this.limit) {
      throw new DomainError(
        'WORK_LIMIT_EXCEEDED',
        `${this.task} needs more work than one call may do (${this.limit} steps) before it finds what was asked for. ${this.advice}`,
        { limit: this.limit },
      );
    }
  }

  /** Steps spent so far. */
  get spent(): number {
    return this.#spent;
  }
}
