/**
 * A fixed-window count of dynamic client registrations per remote address, kept in memory: the
 * embedded runtime is one process. Registration is open to anyone who can reach the server (that
 * is what DCR is for), and every registration is a stored record, so a flood must stop early.
 * Hand-written because it is a dozen lines; a library would bring its own store for a Map.
 */
export class RegistrationLimit {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(private readonly options: { perWindow: number; windowMs: number; now?: () => number }) {}

  /** True (and counted) when `address` may register once more in the current window. */
  allow(address: string): boolean {
    const now = (this.options.now ?? Date.now)();
    const window = this.windows.get(address);
    if (!window || now - window.startedAt >= this.options.windowMs) {
      // Drop finished windows now and then, so the map stays as small as the set of recent callers.
      if (this.windows.size > 10_000) this.windows.clear();
      this.windows.set(address, { startedAt: now, count: 1 });
      return true;
    }
    if (window.count >= this.options.perWindow) return false;
    window.count += 1;
    return true;
  }

  /** Seconds until `address`'s window ends: the Retry-After of a refusal. */
  retryAfterSeconds(address: string): number {
    const window = this.windows.get(address);
    const now = (this.options.now ?? Date.now)();
    return window ? Math.max(1, Math.ceil((window.startedAt + this.options.windowMs - now) / 1000)) : 1;
  }
}
