/**
 * Lets a long loop over stored data share the thread. A call that walks a large calendar (every
 * series expanded for the window: 1,000 weekly series take about 0.6 s) would otherwise hold the
 * event loop for all of it, and every other request — /health included — would wait. The loop
 * calls `pass()` between items; once it has held the thread for `sliceMs`, `pass` waits for the
 * next turn of the event loop (one waiting loop per turn, see `waiting` below). Results never
 * change, only when they are computed. (The time tools' single bounded jobs are scheduled in
 * mcp/computation-turns.ts instead: they cannot be split.)
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

  /** 8 ms: ten calls sharing the loop, a probe waits about one slice per loop turn it needs. */
  constructor(private readonly sliceMs = 8) {}

  /** Resolves at once while the slice lasts; after it, in a later event-loop turn. */
  async pass(): Promise<void> {
    if (performance.now() - this.#since < this.sliceMs) return;
    await nextTurn();
    this.#since = performance.now();
  }
}

/**
 * Callers waiting for a turn of their own, served one per event-loop turn. Each waiter yielding
 * with its own setImmediate would run in the same check phase as every other: ten calls would
 * each hold the thread for a slice before the loop polled again (/health waited 10 × 15 ms and
 * more). Served from one queue, the loop polls for I/O between any two slices, whoever runs them.
 */
const waiting: Array<() => void> = [];
let scheduled = false;

function serveOne(): void {
  scheduled = false;
  const next = waiting.shift();
  // Queued from inside this callback, the next one runs in the next turn, after the loop polled.
  if (waiting.length > 0) schedule();
  next?.();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  if (typeof setImmediate === 'function') setImmediate(serveOne);
  else setTimeout(serveOne, 0);
}

/** A macrotask, so pending I/O (a waiting request) is polled first; one waiter per turn. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}
