/**
 * When a long-running command (`meridian serve`) stops: on the signals a terminal, a process
 * manager or npm sends, and — when npm started it — when npm itself is gone.
 *
 * npm forwards SIGINT and SIGTERM to its script (the `start` script `exec`s node, so they reach
 * this process rather than a shell that would die and leave us on the port); a closed terminal
 * sends SIGHUP to the whole process group. A signal npm does not forward (SIGHUP or SIGKILL sent
 * to npm's PID alone) ends npm and leaves us reparented: under npm, a parent that changes is the
 * end of the run too. Outside npm it is not (`nohup meridian serve &` must outlive its shell).
 */
export const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** How often the parent is checked under npm; cheap (a getter), and bounds how long we outlive it. */
const PARENT_CHECK_MS = 500;

/** A stop that hangs (a stuck close) must still free the port: exit anyway after this long. */
const STOP_LIMIT_MS = 10_000;

export interface ShutdownOptions {
  /** Watch the parent process (true under npm: `npm_lifecycle_event` is set). */
  watchParent?: boolean;
  /** Told why the process stops, e.g. "SIGTERM" or "npm (pid 123) exited". */
  onReason?: (reason: string) => void;
}

/**
 * Runs `stop` once, on the first of SHUTDOWN_SIGNALS (or the parent's exit), then exits 0; exits
 * 1 if `stop` throws or takes longer than 10 s.
 *
 * @example
 * stopOnShutdown(async () => { await server.close(); await runtime.close(); },
 *   { watchParent: process.env.npm_lifecycle_event !== undefined });
 */
export function stopOnShutdown(stop: () => Promise<void>, options: ShutdownOptions = {}): void {
  let stopping = false;
  const shutdown = (reason: string) => {
    if (stopping) return;
    stopping = true;
    options.onReason?.(reason);
    setTimeout(() => process.exit(1), STOP_LIMIT_MS).unref();
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // `on`, not `once`, and repeats ignored: Ctrl-C in a terminal under npm delivers SIGINT twice
  // (to the whole process group, and forwarded by npm), which must not cut the clean stop short.
  for (const signal of SHUTDOWN_SIGNALS) process.on(signal, () => shutdown(signal));
  if (options.watchParent) {
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) shutdown(`its parent (pid ${parent}) exited`);
    }, PARENT_CHECK_MS).unref();
  }
}
