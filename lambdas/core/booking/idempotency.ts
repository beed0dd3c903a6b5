import { createHash } from 'node:crypto';
import * as z from 'zod';
import { canonicalJson } from '../canonical-json.js';
import { compareAndSet } from '../compare-and-set.js';
import { DomainError } from '../errors.js';
import {
  type Clock,
  type Condition,
  ConditionFailedError,
  type DocumentStore,
  type ItemKey,
} from '../ports/index.js';
import { PK_PREFIX, SK } from '../storage/key-prefixes.js';
import { type BookingInput, BookingResult, Hold } from './booking-schemas.js';

/**
 * Idempotency records: one item per (principal, key) that says whether a call is in progress or
 * done, so that a retried call gets the first result back instead of a second write. Two kinds
 * share the one mechanism (claim with a lease, replay, owner-conditioned changes):
 *
 * - book_slot's (`sk` BOOKING): in progress, written (the event exists — the commit point) or
 *   completed (released and recorded), with the booking and its hold;
 * - any other write tool's called with an `idempotency_key` (`sk` CALL, mcp/idempotent-call.ts):
 *   in progress or completed, with the tool's answer.
 *
 * Every change is conditioned on `owner` (the id of the call that claimed the record): those ids
 * are unique, so an owner-conditioned write can never land on a record another call has taken over.
 */

/** How long a booking's key is remembered. Checked on read; `ttl` only garbage-collects afterwards. */
export const IDEMPOTENCY_RETENTION_MS = 7 * 24 * 3_600_000;

/**
 * How long a keyed tool call holds its key before a retry may take it over and run again: well
 * beyond what a create call takes (a snapshot of a large memory: seconds), so that a retry sent
 * while the first call still runs is told to wait (LOCK_CONTENDED) rather than write twice.
 */
export const CALL_LEASE_MS = 120_000;

const Status = z.enum(['pending', 'written', 'completed']);

export const IdempotencyItem = z.object({
  pk: z.string(),
  sk: z.enum([SK.idempotency.booking, SK.idempotency.call]),
  status: Status,
  owner: z.string(),
  request_hash: z.string(),
  /** A booking's calendar. */
  calendar_id: z.string().optional(),
  /** A keyed call's tool. */
  tool: z.string().optional(),
  principal: z.string(),
  /** While pending: after this instant the claiming call is presumed dead and may be taken over. */
  lease_until_ms: z.number().int(),
  retain_until_ms: z.number().int(),
  hold: Hold.optional(),
  booking: BookingResult.optional(),
  /** A keyed call's answer (structuredContent), once completed. */
  result: z.record(z.string(), z.unknown()).optional(),
  updated_at: z.string(),
});
export type IdempotencyItem = z.infer<typeof IdempotencyItem>;

export type ClaimOutcome =
  | { kind: 'claimed' }
  | { kind: 'replay'; booking: BookingResult; hold?: Hold | undefined };

/** A tools/call made with an idempotency_key, as mcp/idempotent-call.ts claims it ({@link IdempotencyRecords.keyedCall}). */
export interface KeyedCall {
  /** From {@link storedIdempotencyKey}, scoped to the principal and the tool. */
  key: string;
  /** A new id for this attempt: the record's owner while it runs. */
  owner: string;
  tool: string;
  principal: string;
  /** A digest of the call's arguments (all but the key). */
  request_hash: string;
}

export type CallClaimOutcome = { kind: 'claimed' } | { kind: 'replay'; result: Record<string, unknown> };

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

function idempotencyKey(key: string, sk: IdempotencyItem['sk'] = SK.idempotency.booking): ItemKey {
  return { pk: `${PK_PREFIX.idempotency}${key}`, sk };
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
    return this.claimItem(this.pendingItem(input), (live, now) => decide(live, input, now));
  }

  /**
   * The record a keyed tool call claims: its key scoped to the principal and the tool (one key
   * string sent to two tools names two calls), a new owner, and a digest of the arguments as the
   * caller sent them (key order ignored; `ignored` left out, e.g. the key itself and `format`).
   */
  keyedCall(call: {
    tool: string;
    principal: string;
    clientKey: string;
    args: Record<string, unknown>;
    owner: string;
    ignored: ReadonlySet<string>;
  }): KeyedCall {
    const written = Object.fromEntries(Object.entries(call.args).filter(([name]) => !call.ignored.has(name)));
    return {
      key: storedIdempotencyKey(call.principal, `${call.tool}\n${call.clientKey}`, ''),
      owner: call.owner,
      tool: call.tool,
      principal: call.principal,
      request_hash: sha256(canonicalJson(written)),
    };
  }

  /**
   * Claims a keyed tool call's key for `call.owner`, or answers the result the key already stands
   * for. Throws INVALID_INPUT when the key was used with other arguments, LOCK_CONTENDED while a
   * call with the same key is still running.
   */
  async claimCall(call: KeyedCall): Promise<CallClaimOutcome> {
    return this.claimItem(this.pendingCall(call), (live, now) => decideCall(live, call, now));
  }

  /** Records a keyed call's answer for its replays. Owner-conditioned. */
  async completeCall(call: KeyedCall, result: Record<string, unknown>): Promise<void> {
    const item = {
      ...this.pendingCall(call),
      status: 'completed' as const,
      result,
      lease_until_ms: this.now(),
    };
    await this.deps.store.put(item, { condition: ownerIs(call.owner) });
  }

  /** Forgets a keyed call that failed, so that a retry runs afresh. */
  async clearCall(call: KeyedCall): Promise<void> {
    await this.clearItem(idempotencyKey(call.key, SK.idempotency.call), call.owner);
  }

  /** Puts `pending` unless a live record decides otherwise; takes over an expired or dead claim. */
  private async claimItem<Outcome extends { kind: string }>(
    pending: ItemKey & Record<string, unknown>,
    decideOn: (live: IdempotencyItem, now: number) => Outcome | undefined,
  ): Promise<Outcome | { kind: 'claimed' }> {
    const key = { pk: pending.pk, sk: pending.sk };
    try {
      await this.deps.store.put(pending, { condition: { op: 'not_exists' } });
      return { kind: 'claimed' };
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
    // A lost conditional write means another call moved the item on: read it again, at once.
    return compareAndSet(
      async () => {
        const raw = await this.deps.store.get(key, { consistent: true });
        const existing = raw ? IdempotencyItem.parse(raw) : undefined;
        const now = this.now();
        const live = existing && existing.retain_until_ms > now ? existing : undefined;
        if (live) {
          const decided = decideOn(live, now);
          if (decided) return decided;
        }
        // Absent, past retention, or a pending claim whose caller died: take it over, on the
        // condition that nobody else did first.
        await this.deps.store.put(pending, {
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
        return { kind: 'claimed' as const };
      },
      {
        maxAttempts: 3,
        exhausted: () =>
          new DomainError(
            'LOCK_CONTENDED',
            'Another call with the same idempotency_key is starting; retry in a second.',
            { retry_after_seconds: 1 },
          ),
      },
    );
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
    await this.clearItem(idempotencyKey(key), owner);
  }

  private async clearItem(key: ItemKey, owner: string): Promise<void> {
    try {
      await this.deps.store.delete(key, {
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

  private pendingCall(call: KeyedCall) {
    const now = this.now();
    const item = {
      ...idempotencyKey(call.key, SK.idempotency.call),
      status: 'pending' as const,
      owner: call.owner,
      request_hash: call.request_hash,
      tool: call.tool,
      principal: call.principal,
      lease_until_ms: now + CALL_LEASE_MS,
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
export function assertSameRequest(
  existing: Pick<IdempotencyItem, 'request_hash'>,
  hash: string,
  /** What the key was first used for, e.g. "a different create_event call (other arguments)". */
  firstUse = 'a different booking (other calendar, time, summary, description or attendees)',
): void {
  if (existing.request_hash !== hash) {
    throw new DomainError(
      'INVALID_INPUT',
      `This idempotency_key was already used for ${firstUse}. Use a new key for a new call, ` +
        'or repeat the original arguments to get its result.',
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
  assertLeaseOver(existing, now, 'The same booking (same idempotency key) is already in progress');
  return undefined;
}

/** {@link decide} for a keyed tool call. */
function decideCall(existing: IdempotencyItem, call: KeyedCall, now: number): CallClaimOutcome | undefined {
  assertSameRequest(existing, call.request_hash, `a ${call.tool} call with other arguments`);
  if (existing.status === 'completed' && existing.result) return { kind: 'replay', result: existing.result };
  if (existing.owner === call.owner) return { kind: 'claimed' };
  assertLeaseOver(existing, now, `A ${call.tool} call with the same idempotency_key is still running`);
  return undefined;
}

/** Throws LOCK_CONTENDED while the claiming call's lease lasts: it may still answer. */
function assertLeaseOver(existing: IdempotencyItem, now: number, running: string): void {
  if (existing.lease_until_ms <= now) return;
  const seconds = Math.max(1, Math.ceil((existing.lease_until_ms - now) / 1000));
  throw new DomainError('LOCK_CONTENDED', `${running}. Retry in ${seconds} s to get its result.`, {
    retry_after_seconds: seconds,
  });
}
