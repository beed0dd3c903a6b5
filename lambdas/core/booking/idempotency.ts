import { createHash } from 'node:crypto';
import { z } from 'zod';
import { DomainError } from '../errors.js';
import {
  type Clock,
  type Condition,
  ConditionFailedError,
  type DocumentStore,
  type ItemKey,
} from '../ports/index.js';
import { retry } from '../retry.js';
import { PK_PREFIX, SK } from '../storage/key-prefixes.js';
import { type BookingInput, BookingResult, Hold } from './booking-schemas.js';

/**
 * Idempotency records of book_slot: one item per (principal, key) that says whether a booking is
 * in progress, written (the event exists — the commit point) or completed (released and recorded).
 * A retried call finds the record and gets the first booking back instead of a second event.
 *
 * Every change is conditioned on `owner` (the booking_id that claimed the record): booking ids are
 * unique, so an owner-conditioned write can never land on a record another call has taken over.
 */

/** How long a booking's key is remembered. Checked on read; `ttl` only garbage-collects afterwards. */
export const IDEMPOTENCY_RETENTION_MS = 7 * 24 * 3_600_000;

const Status = z.enum(['pending', 'written', 'completed']);

export const IdempotencyItem = z.object({
  pk: z.string(),
  sk: z.literal(SK.idempotency.booking),
  status: Status,
  owner: z.string(),
  request_hash: z.string(),
  calendar_id: z.string(),
  principal: z.string(),
  /** While pending: after this instant the claiming call is presumed dead and may be taken over. */
  lease_until_ms: z.number().int(),
  retain_until_ms: z.number().int(),
  hold: Hold.optional(),
  booking: BookingResult.optional(),
  updated_at: z.string(),
});
export type IdempotencyItem = z.infer<typeof IdempotencyItem>;

export type ClaimOutcome =
  | { kind: 'claimed' }
  | { kind: 'replay'; booking: BookingResult; hold?: Hold | undefined };

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * A digest of what makes two book_slot calls the same booking: calendar, instants (not their
 * spelling: "10:00-04:00" and "14:00Z" are one slot), summary, description and attendees (order and
 * case ignored).
 *
 * @example
 * requestHash({ calendar_id: 'native/a', start_ms: 0, end_ms: 1, summary: 'x' }).length; // 64
 */
export function requestHash(request: {
  calendar_id: string;
  start_ms: number;
  end_ms: number;
  summary: string;
  description?: string | undefined;
  attendees?: readonly string[] | undefined;
}): string {
  const attendees = [...new Set((request.attendees ?? []).map((a) => a.trim().toLowerCase()))].sort();
  return sha256(
    JSON.stringify([
      request.calendar_id,
      request.start_ms,
      request.end_ms,
      request.summary,
      request.description ?? '',
      attendees,
    ]),
  );
}

/**
 * The stored key: the caller's idempotency_key, or the request hash when none was given, scoped to
 * the principal (two API keys never share a booking by choosing the same string) and hashed (the
 * stored key has a fixed size whatever the caller sent).
 *
 * @example
 * storedIdempotencyKey('key:k1', 'retry-42', hash) !== storedIdempotencyKey('key:k2', 'retry-42', hash); // true
 */
export function storedIdempotencyKey(principal: string, clientKey: string | undefined, hash: string): string {
  return sha256(`${principal}\n${clientKey === undefined ? `derived:${hash}` : `client:${clientKey}`}`);
}

function idempotencyKey(key: string): ItemKey {
  return { pk: `${PK_PREFIX.idempotency}${key}`, sk: SK.idempotency.booking };
}

const ownerIs = (owner: string): Condition => ({ op: 'eq', attribute: 'owner', value: owner });

export class IdempotencyRecords {
  constructor(private readonly deps: { store: DocumentStore; clock: Clock; leaseMs: number }) {}

  /** The record, unless there is none or it is past its retention. */
  async find(key: string): Promise<IdempotencyItem | undefined> {
    const raw = await this.deps.store.get(idempotencyKey(key), { consistent: true });
    if (!raw) return undefined;
    const item = IdempotencyItem.parse(raw);
    return item.retain_until_ms > this.now() ? item : undefined;
  }

  /**
   * Claims the key for `input.booking_id`, or says which booking it already stands for. Throws
   * INVALID_INPUT when the key was used for other parameters, LOCK_CONTENDED while another call
   * with the same key is still in progress.
   */
  async claim(input: BookingInput): Promise<ClaimOutcome> {
    const key = idempotencyKey(input.idempotency_key);
    try {
      await this.deps.store.put(this.pendingItem(input), { condition: { op: 'not_exists' } });
      return { kind: 'claimed' };
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
    try {
      // A lost conditional write means another call moved the item on: read it again, at once.
      return await retry(
        async () => {
          const raw = await this.deps.store.get(key, { consistent: true });
          const existing = raw ? IdempotencyItem.parse(raw) : undefined;
          const now = this.now();
          const live = existing && existing.retain_until_ms > now ? existing : undefined;
          if (live) {
            const decided = decide(live, input, now);
            if (decided) return decided;
          }
          // Absent, past retention, or a pending claim whose caller died: take it over, on the
          // condition that nobody else did first.
          await this.deps.store.put(this.pendingItem(input), {
            condition: existing
              ? {
                  op: 'and',
                  conditions: [
                    ownerIs(existing.owner),
                    { op: 'eq', attribute: 'status', value: existing.status },
                  ],
                }
              : { op: 'not_exists' },
          });
          return { kind: 'claimed' } as const;
        },
        { maxAttempts: 3, isRetryable: (error) => error instanceof ConditionFailedError },
      );
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      throw new DomainError(
        'LOCK_CONTENDED',
        'Another call with the same idempotency_key is starting; retry in a second.',
        {
          retry_after_seconds: 1,
        },
      );
    }
  }

  /** The commit point: the event exists and this record now says so. Owner-conditioned. */
  async markWritten(input: BookingInput, booking: BookingResult, hold: Hold): Promise<void> {
    await this.deps.store.put(
      { ...this.pendingItem(input), status: 'written', booking, hold, lease_until_ms: this.now() },
      { condition: ownerIs(input.booking_id) },
    );
  }

  /** After release: the record keeps the booking for replays and drops the hold. Idempotent. */
  async markCompleted(record: IdempotencyItem): Promise<void> {
    const { hold: _released, ...rest } = record;
    await this.deps.store.put(
      { ...rest, status: 'completed', updated_at: this.deps.clock.now().toISOString(), ttl: ttlOf(rest) },
      { condition: ownerIs(record.owner) },
    );
  }

  /** Forgets a pending claim of `owner` after a failed booking, so that a retry runs afresh. */
  async clear(key: string, owner: string): Promise<void> {
    try {
      await this.deps.store.delete(idempotencyKey(key), {
        condition: {
          op: 'and',
          conditions: [ownerIs(owner), { op: 'eq', attribute: 'status', value: 'pending' }],
        },
      });
    } catch (error) {
      // Not ours (taken over) or already committed: either way it is not ours to forget.
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }

  private pendingItem(input: BookingInput) {
    const now = this.now();
    const item = {
      ...idempotencyKey(input.idempotency_key),
      status: 'pending' as const,
      owner: input.booking_id,
      request_hash: input.request_hash,
      calendar_id: input.calendar.calendar_id,
      principal: input.principal,
      lease_until_ms: now + this.deps.leaseMs,
      retain_until_ms: now + IDEMPOTENCY_RETENTION_MS,
      updated_at: new Date(now).toISOString(),
    };
    return { ...item, ttl: ttlOf(item) };
  }

  private now(): number {
    return this.deps.clock.now().getTime();
  }
}

function ttlOf(item: { retain_until_ms: number }): number {
  return Math.ceil(item.retain_until_ms / 1000);
}

/** Throws INVALID_INPUT when a key comes back with other parameters than it was first used with. */
export function assertSameRequest(existing: Pick<IdempotencyItem, 'request_hash'>, hash: string): void {
  if (existing.request_hash !== hash) {
    throw new DomainError(
      'INVALID_INPUT',
      'This idempotency_key was already used for a different booking (other calendar, time, summary, ' +
        'description or attendees). Use a new key for a new booking, or repeat the original parameters to get its result.',
      { field: 'idempotency_key' },
    );
  }
}

/** What an existing, unexpired record means for a new claim; undefined when it may be taken over. */
function decide(existing: IdempotencyItem, input: BookingInput, now: number): ClaimOutcome | undefined {
  assertSameRequest(existing, input.request_hash);
  if (existing.status !== 'pending' && existing.booking) {
    return {
      kind: 'replay',
      booking: existing.booking,
      hold: existing.status === 'written' ? existing.hold : undefined,
    };
  }
  if (existing.owner === input.booking_id) return { kind: 'claimed' };
  if (existing.lease_until_ms > now) {
    const seconds = Math.max(1, Math.ceil((existing.lease_until_ms - now) / 1000));
    throw new DomainError(
      'LOCK_CONTENDED',
      `The same booking (same idempotency key) is already in progress. Retry in ${seconds} s to get its result.`,
      { retry_after_seconds: seconds },
    );
  }
  return undefined;
}
