/**
 * Lets a long loop over stored data share the thread. A call that walks a large calendar (every
 * series expanded for the window: 1,000 weekly series take about 0.6 s) would otherwise hold the
 * event loop for all of it, and every other request — /health included — would wait. The loop
 * calls `pass()` between items; once it has held the thread for `sliceMs`, `pass` waits for the
 * next turn of the event loop. Results never change, only when they are computed. (The time tools'
 * single bounded jobs are scheduled in mcp/computation-turns.ts instead: they cannot be split.)
 *
 * @example
 * const turns = new TurnSharer();
 * for (const series of allSeries) {
 *   await turns.pass();
 *   expand(series);
 * }
 */
export class TurnSharer {
  #since = performance.now();

  constructor(private readonly sliceMs = 15) {}

  /** Resolves at once while the slice lasts; after it, in a later event-loop turn. */
  async pass(): Promise<void> {
    if (performance.now() - this.#since < this.sliceMs) return;
    await nextTurn();
    this.#since = performance.now();
  }
}

/** A macrotask, so pending I/O (a waiting request) is polled first; setImmediate where Node has it. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) =>
    typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  );
}
