import { DomainError } from './errors.js';
import { TurnSharer } from './turns.js';

/**
 * Items one call (or one HTTP request: a JSON-RPC batch shares it) may handle: occurrences a
 * series expands into, events and stored items read. Counted, not timed, like WorkBudget's steps,
 * so an answer never depends on the machine's load. At 20–40 µs of CPU per occurrence (expanded,
 * viewed, classified), 50,000 keep one call near 1–2 s of CPU; a year of one hourly series is
 * 8,760, a month of 50 busy calendars a few thousand.
 */
export const DEFAULT_CALL_WORK_ITEMS = 50_000;

/** How to narrow a call that read or expanded too much of its calendars. */
export const NARROW_CALENDAR_READ =
  'Ask for a shorter window (start/end), fewer calendars (calendar_id or calendar_ids), or fewer results.';

/**
 * The work one call may do, and whether it should stop. Loops over stored data call `spend` for
 * what they read or expand (WORK_LIMIT_EXCEEDED once the bound is passed, with the bound, what
 * was spent and how to narrow the call) and `pass` between items, which shares the event loop
 * (TurnSharer) and stops the call once its `signal` fired: the client went away, or the call
 * passed its deadline. The core never reads the clock for that: the runtime aborts the signal.
 *
 * @example
 * const work = new CallWork(50_000, request.signal);
 * for (const series of allSeries) {
 *   await work.pass();
 *   work.spend(expand(series).length, 'Ask for a shorter window.');
 * }
 */
export class CallWork {
  #spent = 0;
  readonly #turns = new TurnSharer();

  constructor(
    readonly bound: number = DEFAULT_CALL_WORK_ITEMS,
    readonly signal?: AbortSignal,
  ) {}

  /** Records `items` of work; throws WORK_LIMIT_EXCEEDED past the bound (or the signal's reason). */
  spend(items: number, narrow: string): void {
    this.stopIfCancelled();
    this.#spent += items;
    if (this.#spent > this.bound) {
      throw new CallStoppedError(
        'WORK_LIMIT_EXCEEDED',
        `This call needs more than ${this.bound} events, occurrences or stored items (the most one call may ` +
          `read or expand), so it stopped. ${narrow}`,
        { bound: this.bound, spent: this.#spent, unit: 'items', narrow },
      );
    }
  }

  /** Throws once the signal fired: its reason when that is a CallStoppedError (a deadline), else CANCELLED. */
  stopIfCancelled(): void {
    const { signal } = this;
    if (!signal?.aborted) return;
    if (isWorkStop(signal.reason)) throw signal.reason;
    throw new CallStoppedError(
      'CANCELLED',
      'The call was cancelled (its client went away); nothing was answered.',
    );
  }

  /** Between items: stops a cancelled call, and lets other requests run once this one held the thread. */
  async pass(): Promise<void> {
    this.stopIfCancelled();
    await this.#turns.pass();
    this.stopIfCancelled();
  }

  /** Items spent so far. */
  get spent(): number {
    return this.#spent;
  }
}

/**
 * A failure that ends the whole call, not one item of it: its work bound, its deadline, its
 * cancellation. Code that tolerates one item's failure (a rule it cannot expand, a calendar that
 * cannot be read, in a fan-out) must let it through: see {@link isWorkStop}.
 */
export class CallStoppedError extends DomainError {}

/**
 * Whether `error` ended the call for its work, deadline or cancellation (not for one item's input).
 *
 * @example
 * catch (error) { if (!isDomainError(error) || isWorkStop(error)) throw error; }
 */
export function isWorkStop(error: unknown): boolean {
  return error instanceof CallStoppedError;
}
