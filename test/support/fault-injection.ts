/**
 * Fault injection over the ports: every call to a wrapped object's methods counts as one step,
 * across all the objects one injector wraps. `fail` throws at step N only (the code's clean-up
 * runs against working ports); `crash` throws at step N and every step after, as a process that
 * died there would leave things (no clean-up reaches the store).
 */
export type FaultMode = 'fail' | 'crash';

export class InjectedFault extends Error {
  override readonly name = 'InjectedFault';
}

export class FaultInjector {
  /** Steps taken so far; a run without a fault tells how many steps there are. */
  steps = 0;
  /** The methods called, in order (`state.stageGeneration`, …), to name the failing step. */
  readonly trace: string[] = [];

  constructor(
    private readonly failAt = Number.POSITIVE_INFINITY,
    private readonly mode: FaultMode = 'fail',
  ) {}

  wrap<T extends object>(label: string, target: T): T {
    return new Proxy(target, {
      get: (object, property, receiver) => {
        const value = Reflect.get(object, property, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          this.steps += 1;
          this.trace.push(`${label}.${String(property)}`);
          const broken = this.mode === 'crash' ? this.steps >= this.failAt : this.steps === this.failAt;
          if (broken)
            throw new InjectedFault(
              `injected ${this.mode} at step ${this.steps} (${label}.${String(property)})`,
            );
          return (value as (...a: unknown[]) => unknown).apply(object, args);
        };
      },
    });
  }
}
