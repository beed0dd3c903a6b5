/**
 * Calendars a fan-out call (every readable calendar) reads at once. Unbounded, a key with a
 * thousand calendars queued thousands of requests behind the HTTP agent's 50 sockets (found by a
 * long fuzz run) and starved every other request.
 */
export const CALENDARS_READ_AT_ONCE = 8;

/**
 * Runs `task` over `items` with at most `limit` in flight, results in input order. Written by
 * hand: ten lines, where a dependency (p-limit) would add an ESM-only package for one loop.
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
