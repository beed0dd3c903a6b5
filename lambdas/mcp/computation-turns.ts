/**
 * Runs CPU-bound tool work one job per event-loop turn, in arrival order. Each job is bounded
 * (a WorkBudget keeps it near 100 ms), but ten requests that arrive together would otherwise run
 * their jobs back to back in one turn and hold every other request — /health included — for the
 * sum. Here the next job starts from a fresh setImmediate only after the previous one finished,
 * so the loop polls for I/O between jobs and a waiting request is served after at most one job.
 */
let tail: Promise<unknown> = Promise.resolve();

/**
 * Queues `work` to run alone in a later event-loop turn; resolves or rejects with its outcome.
 *
 * @example
 * const result = await inOwnTurn(() => expandRrule(input));
 */
export function inOwnTurn<T>(work: () => T): Promise<T> {
  const result = tail.then(
    () =>
      new Promise<T>((resolve, reject) => {
        setImmediate(() => {
          try {
            resolve(work());
          } catch (error) {
            reject(error);
          }
        });
      }),
  );
  tail = result.catch(() => undefined);
  return result;
}
