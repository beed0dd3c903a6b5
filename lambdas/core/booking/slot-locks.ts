import * as z from 'zod';
import { compareAndSet } from '../compare-and-set.js';
import { DomainError } from '../errors.js';
import type { Clock, DocumentStore, ItemKey, RandomSource } from '../ports/index.js';
import { linearJitter } from '../retry.js';
import { PK_PREFIX, SK } from '../storage/key-prefixes.js';
import { Hold } from './booking-schemas.js';

/**
 * Interval locks on a calendar, with fencing tokens, on nothing but single-item conditional writes.
 *
 * One item per calendar (`LOCK#<calendar id>` / `HOLDS`) lists the holds, a `fence` counter and a
 * `version`. Acquiring reads the item, drops the holds whose `expires_at_ms` has passed (by the
 * injected clock), refuses if an active hold overlaps the wanted interval, and writes the item back
 * on the condition that `version` is still the one it read. Of any number of concurrent acquirers
 * exactly one write wins per version; the others read again and either see the winner's hold (and
 * are refused) or retry. So overlapping intervals exclude each other exactly, a round never ends
 * with zero winners, and expiry is decided on the very state the condition pins. `ttl` only lets
 * DynamoDB garbage-collect an item long after its last hold expired. Releasing a hold after a
 * booking turns it into a short-lived booked entry (see {@link BOOKED_VISIBLE_MS}). See
 * docs/adr/0002-booking-locks.md.
 */

const LockItem = z.object({
  pk: z.string(),
  sk: z.literal(SK.slotLock.holds),
  holds: z.array(Hold),
  fence: z.number().int().nonnegative(),
  version: z.number().int().positive(),
});
type LockItem = z.infer<typeof LockItem>;

/**
 * A read of a calendar's lock item started ahead of an acquire or release
 * ({@link SlotLocks.prefetch}), so that it overlaps the caller's other round trips.
 */
export type LockItemRead = Promise<LockItem | undefined>;

/** A half-open interval [start_ms, end_ms) in epoch milliseconds. */
export interface SlotInterval {
  start_ms: number;
  end_ms: number;
}

export interface SlotLocksDeps {
  store: DocumentStore;
  clock: Clock;
  random: RandomSource;
  /** Waits between compare-and-set attempts (a timer in the runtimes). */
  pause: (ms: number) => Promise<void>;
  /** How long a hold lives (LOCK_TTL_SECS). */
  ttlMs: number;
  /** Compare-and-set attempts before giving up with LOCK_CONTENDED. @default 25 */
  maxAttempts?: number;
  /** Mean pause after a lost compare-and-set, grown linearly per attempt, with full jitter. @default 4 */
  backoffMs?: number;
}

/** How long after its last hold expires the item may be garbage-collected (it keeps the fence). */
const GC_AFTER_MS = 24 * 3_600_000;

/**
 * How long a released hold keeps standing for the booking it made. Verify reads the calendar
 * through the provider, whose listing may lag a write (the native calendar's index on DynamoDB is
 * eventually consistent; Google and CalDAV are remote): within this window the next booker learns
 * of the booking from the lock item itself, read consistently, and gets SLOT_TAKEN at once.
 */
export const BOOKED_VISIBLE_MS = 5 * 60_000;

export function lockKey(calendarId: string): ItemKey {
  return { pk: `${PK_PREFIX.slotLock}${calendarId}`, sk: SK.slotLock.holds };
}

/** Whether two half-open intervals share an instant. Touching intervals (end == start) do not. */
export function overlaps(a: SlotInterval, b: SlotInterval): boolean {
  return a.start_ms < b.end_ms && b.start_ms < a.end_ms;
}

/**
 * @example
 * const locks = new SlotLocks({ store, clock, random, pause, ttlMs: 30_000 });
 * const hold = await locks.acquire('native/abc', bookingId, { start_ms, end_ms });
 * // … verify, write while locks.isHeld(…) …
 * await locks.release('native/abc', hold);
 */
export class SlotLocks {
  constructor(private readonly deps: SlotLocksDeps) {}

  /** The holds on the calendar that have not expired, and the fence counter. */
  async activeHolds(calendarId: string): Promise<{ holds: Hold[]; fence: number }> {
    const item = await this.read(calendarId);
    const now = this.now();
    return { holds: (item?.holds ?? []).filter((h) => h.expires_at_ms > now), fence: item?.fence ?? 0 };
  }

  /**
   * Starts reading the calendar's lock item now, for an {@link acquire} or {@link release} that
   * starts later. The early read can only be stale, never wrong: the write that follows it is
   * conditioned on the version it saw, so a change in between costs one more round, as with any
   * concurrent writer. A read never used fails silently (it is not an unhandled rejection).
   */
  prefetch(calendarId: string): LockItemRead {
    const read = this.read(calendarId);
    read.catch(() => undefined);
    return read;
  }

  /**
   * Takes a hold on `interval` for `owner`, or returns the one `owner` already has (so a retried
   * step does not take a second). Throws SLOT_TAKEN when a booking just made overlaps (times shown
   * in `zone`), LOCK_CONTENDED when an active hold of another owner overlaps or the item stays too
   * busy to write. `early` (from {@link prefetch}) stands for the first round's read.
   */
  async acquire(
    calendarId: string,
    owner: string,
    interval: SlotInterval,
    zone = 'UTC',
    early?: LockItemRead,
  ): Promise<Hold> {
    const read = this.reader(calendarId, early);
    return this.compareAndSet(
      async () => {
        const item = await read();
        const now = this.now();
        const active = (item?.holds ?? []).filter((h) => h.expires_at_ms > now);
        const mine = active.find((h) => h.owner === owner && !h.booked && overlaps(h, interval));
        if (mine) return mine;
        const blocking = active.filter((h) => overlaps(h, interval));
        if (blocking.length > 0) {
          // Loaded only to refuse: its times are written with luxon, which a hold taken needs not.
          const { refusal } = await import('./lock-refusals.js');
          throw refusal(blocking, now, zone, calendarId);
        }

        const fence = (item?.fence ?? 0) + 1;
        const hold: Hold = { owner, token: fence, ...interval, expires_at_ms: now + this.deps.ttlMs };
        await this.write(calendarId, item, [...active, hold], fence);
        return hold;
      },
      () =>
        new DomainError(
          'LOCK_CONTENDED',
          'The calendar is busy with other bookings right now. Retry in a second; nothing was booked.',
          { retry_after_seconds: 1 },
        ),
    );
  }

  /**
   * Whether `hold` is still in force and will be for `marginMs` more. A hold that is present and
   * unexpired now has been in force without a break since it was taken: no other overlapping hold
   * can have been granted meanwhile. That is the fencing check around the provider write.
   */
  async isHeld(calendarId: string, hold: Pick<Hold, 'owner' | 'token'>, marginMs = 0): Promise<boolean> {
    const item = await this.read(calendarId);
    const now = this.now();
    return (item?.holds ?? []).some(
      (h) =>
        h.owner === hold.owner && h.token === hold.token && !h.booked && h.expires_at_ms > now + marginMs,
    );
  }

  /**
   * Drops the hold (owner and token must match) — or, given the booking it made, turns it into a
   * booked entry for {@link BOOKED_VISIBLE_MS}. True if the hold was there; a no-op if already gone.
   * `early` (from {@link prefetch}) stands for the first round's read.
   */
  async release(
    calendarId: string,
    hold: Pick<Hold, 'owner' | 'token'>,
    booked?: NonNullable<Hold['booked']>,
    early?: LockItemRead,
  ): Promise<boolean> {
    const read = this.reader(calendarId, early);
    return this.compareAndSet(
      async () => {
        const item = await read();
        const released = item?.holds.find(
          (h) => h.owner === hold.owner && h.token === hold.token && !h.booked,
        );
        if (!item || !released) return false;
        const now = this.now();
        const kept = item.holds.filter((h) => h !== released && h.expires_at_ms > now);
        if (booked) kept.push({ ...released, expires_at_ms: now + BOOKED_VISIBLE_MS, booked });
        await this.write(calendarId, item, kept, item.fence);
        return true;
      },
      (lost) =>
        new Error(`could not release hold ${hold.owner}/${hold.token} on ${calendarId}: item too busy`, {
          cause: lost,
        }),
    );
  }

  /**
   * Runs one read-modify-write round until its conditional write wins; a lost write (another
   * writer moved `version` on) is retried after a pause with full jitter over a window that grows
   * with the attempt, so the losers spread out instead of colliding again. Once the attempts run
   * out, `exhausted` says what failed.
   */
  private compareAndSet<T>(round: () => Promise<T>, exhausted: (lost: unknown) => Error): Promise<T> {
    const stepMs = (this.deps.backoffMs ?? 4) * 2;
    return compareAndSet(round, {
      maxAttempts: this.deps.maxAttempts ?? 25,
      exhausted,
      backoff: linearJitter({ stepMs, maxSteps: 8 }),
      random: () => this.unitRandom(),
      sleep: this.deps.pause,
    });
  }

  /** Reads for compare-and-set rounds: the early read for the first, a fresh one after. */
  private reader(calendarId: string, early: LockItemRead | undefined): () => LockItemRead {
    let first = early;
    return () => {
      const read = first ?? this.read(calendarId);
      first = undefined;
      return read;
    };
  }

  private async read(calendarId: string): Promise<LockItem | undefined> {
    const raw = await this.deps.store.get(lockKey(calendarId), { consistent: true });
    return raw ? LockItem.parse(raw) : undefined;
  }

  private async write(
    calendarId: string,
    previous: LockItem | undefined,
    holds: Hold[],
    fence: number,
  ): Promise<void> {
    const lastExpiry = Math.max(this.now(), ...holds.map((h) => h.expires_at_ms));
    await this.deps.store.put(
      {
        ...lockKey(calendarId),
        holds,
        fence,
        version: (previous?.version ?? 0) + 1,
        ttl: Math.ceil((lastExpiry + GC_AFTER_MS) / 1000),
      },
      {
        condition: previous
          ? { op: 'eq', attribute: 'version', value: previous.version }
          : { op: 'not_exists' },
      },
    );
  }

  private now(): number {
    return this.deps.clock.now().getTime();
  }

  /** A number in [0, 1) from two random bytes (core draws randomness only from the port). */
  private unitRandom(): number {
    const [high = 0, low = 0] = this.deps.random.bytes(2);
    return (high * 256 + low) / 65_536;
  }
}
