/**
 * Runs `make` once, on the first call; later calls share its promise (a rejection included:
 * what failed to load or build once is not retried behind the caller's back).
 *
 * @example
 * const graph = once(() => import('./heavy.js'));
 * await graph(); await graph(); // imported once
 */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}
