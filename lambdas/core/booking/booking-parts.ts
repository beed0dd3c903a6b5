import type { CalendarRecord } from '../calendar/calendar-registry.js';
import type {
  CalendarProvider,
  CalendarRef,
  Clock,
  DocumentStore,
  Logger,
  RandomSource,
  ShadowCalendar,
} from '../ports/index.js';
import type { BookingInput } from './booking-schemas.js';
import { IdempotencyRecords } from './idempotency.js';
import { SlotLocks } from './slot-locks.js';

/** What the booking steps need; composeDeps provides it on both runtimes. */
export interface BookingStepsDeps {
  store: DocumentStore;
  clock: Clock;
  random: RandomSource;
  /** Waits between compare-and-set attempts on a lock item. */
  pause: (ms: number) => Promise<void>;
  /** Resolves a calendar record to its provider (CalendarService fits). */
  calendars: {
    providerFor(record: CalendarRecord): Promise<{ provider: CalendarProvider; ref: CalendarRef }>;
  };
  shadow: ShadowCalendar;
  /** Lifetime of a hold and of a pending idempotency claim (LOCK_TTL_SECS). */
  lockTtlMs: number;
  defaultTimezone: string | undefined;
  /** Where unexpected step failures are logged (the caller only sees an internal error). */
  logger?: Pick<Logger, 'error'>;
}

/**
 * Before the provider write a hold must still have this long to live, so that the write (and the
 * check after it) fit inside the hold: a third of the TTL, at most 10 s.
 */
export function fencingMarginMs(lockTtlMs: number): number {
  return Math.min(10_000, Math.floor(lockTtlMs / 3));
}

/** The pieces every step works with, built once per process. */
export interface BookingParts {
  deps: BookingStepsDeps;
  locks: SlotLocks;
  idempotency: IdempotencyRecords;
}

export function bookingParts(deps: BookingStepsDeps): BookingParts {
  return {
    deps,
    locks: new SlotLocks({
      store: deps.store,
      clock: deps.clock,
      random: deps.random,
      pause: deps.pause,
      ttlMs: deps.lockTtlMs,
    }),
    idempotency: new IdempotencyRecords({ store: deps.store, clock: deps.clock, leaseMs: deps.lockTtlMs }),
  };
}

/** The slot of a booking as epoch milliseconds. */
export function slotOf(input: Pick<BookingInput, 'start' | 'end'>): { start_ms: number; end_ms: number } {
  return { start_ms: Date.parse(input.start), end_ms: Date.parse(input.end) };
}
