/**
 * aws-local-stepfunctions 3 calls `Promise.withResolvers` (Node 22+); Meridian runs on Node 20.
 * The polyfill must exist before the library is loaded, which is why the library is only ever
 * imported dynamically, after this has run. Written by hand: five lines of the ES2024 spec.
 */
export function ensurePromiseWithResolvers(): void {
  const promise = Promise as PromiseConstructor & { withResolvers?: unknown };
  if (typeof promise.withResolvers === 'function') return;
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value: function withResolvers<T>() {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const created = new Promise<T>((onResolve, onReject) => {
        resolve = onResolve;
        reject = onReject;
      });
      return { promise: created, resolve, reject };
    },
  });
}
