import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BookingInput, BookingResult, Hold } from '../../../lambdas/core/booking/booking-schemas.js';
import {
  CALL_LEASE_MS,
  IDEMPOTENCY_RETENTION_MS,
  IdempotencyRecords,
  requestHash,
  storedIdempotencyKey,
} from '../../../lambdas/core/booking/idempotency.js';
import { isDomainError } from '../../../lambdas/core/errors.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';
import { ManualClock } from './booking-harness.js';

const calendar = {
  calendar_id: 'native/c1',
  provider: 'native' as const,
  connection_id: 'native',
  native_id: 'c1',
  name: 'C',
  label: null,
  primary: false,
  access_role: 'owner' as const,
  created_at: '2026-01-01T00:00:00Z',
};
const hold: Hold = { owner: 'b1', token: 7, start_ms: 1, end_ms: 2, expires_at_ms: 3 };

function input(bookingId: string, key = 'k', hash = 'h1'): BookingInput {
  return {
    booking_id: bookingId,
    idempotency_key: key,
    request_hash: hash,
    principal: 'local-owner',
    calendar,
    start: '2026-06-02T10:00:00+00:00',
    end: '2026-06-02T11:00:00+00:00',
    summary: 'S',
  };
}

function booking(bookingId: string): BookingResult {
  return {
    booking_id: bookingId,
    event_id: 'e1',
    calendar_id: 'native/c1',
    summary: 'S',
    start: '2026-06-02T10:00:00+00:00',
    end: '2026-06-02T11:00:00+00:00',
    idempotent_replay: false,
  };
}

describe('idempotency keys', () => {
  const base = { calendar_id: 'native/c1', start_ms: 0, end_ms: 3_600_000, summary: 'Standup' };

  describe('requestHash', () => {
    it('is the same for the same booking written differently (attendee order and case)', () => {
      expect(requestHash({ ...base, attendees: ['B@example.com', 'a@example.com'] })).toBe(
        requestHash({ ...base, attendees: ['a@example.com', 'b@example.com'] }),
      );
    });

    it('differs when the calendar, time, summary, description or attendees differ', () => {
      const hashes = [
        requestHash(base),
        requestHash({ ...base, calendar_id: 'native/c2' }),
        requestHash({ ...base, end_ms: 1_800_000 }),
        requestHash({ ...base, summary: 'Retro' }),
        requestHash({ ...base, description: 'notes' }),
        requestHash({ ...base, attendees: ['a@example.com'] }),
      ];
      expect(new Set(hashes).size).toBe(hashes.length);
    });
  });

  describe('storedIdempotencyKey', () => {
    it('scopes a client key to the principal and never equals the derived key', () => {
      const a = storedIdempotencyKey('key:k1', 'retry-1', 'h');
      expect(storedIdempotencyKey('key:k2', 'retry-1', 'h')).not.toBe(a);
      expect(storedIdempotencyKey('key:k1', 'retry-1', 'other hash')).toBe(a);
      expect(storedIdempotencyKey('key:k1', undefined, 'h')).not.toBe(a);
      expect(a).toMatch(/^[0-9a-f]{64}$/);
    });
  });
});

describe('IdempotencyRecords (on dynalite)', () => {
  let runtime: TestRuntime;
  let clock: ManualClock;
  let records: IdempotencyRecords;
  let n = 0;
  const key = () => `key-${n}`;

  beforeAll(async () => {
    runtime = await startTestRuntime();
  });
  afterAll(async () => {
    await runtime.close();
  });
  beforeEach(() => {
    n++;
    clock = new ManualClock('2026-06-01T00:00:00Z');
    records = new IdempotencyRecords({ store: runtime.store, clock, leaseMs: 30_000 });
  });

  it('claims a fresh key, and the same booking claims it again (a retried step)', async () => {
    expect(await records.claim(input('b1', key()))).toEqual({ kind: 'claimed' });
    expect(await records.claim(input('b1', key()))).toEqual({ kind: 'claimed' });
    expect(await records.find(key())).toMatchObject({
      status: 'pending',
      owner: 'b1',
      lease_until_ms: Date.parse('2026-06-01T00:00:30Z'),
    });
  });

  it('answers another call with LOCK_CONTENDED while the claim is live, and lets it take over after', async () => {
    await records.claim(input('b1', key()));

    const refused = await records.claim(input('b2', key())).catch((e: unknown) => e);
    expect(isDomainError(refused, 'LOCK_CONTENDED')).toBe(true);

    clock.advance(30_000);
    expect(await records.claim(input('b2', key()))).toEqual({ kind: 'claimed' });
    expect((await records.find(key()))?.owner).toBe('b2');
  });

  it('replays a written booking with its hold, a completed one without', async () => {
    await records.claim(input('b1', key()));
    await records.markWritten(input('b1', key()), booking('b1'), hold);

    expect(await records.claim(input('b2', key()))).toEqual({ kind: 'replay', booking: booking('b1'), hold });

    await records.markCompleted((await records.find(key()))!);
    expect(await records.claim(input('b3', key()))).toEqual({ kind: 'replay', booking: booking('b1') });
  });

  it('refuses a key reused for other parameters', async () => {
    await records.claim(input('b1', key(), 'h1'));

    const error = await records.claim(input('b2', key(), 'h2')).catch((e: unknown) => e);

    expect(isDomainError(error, 'INVALID_INPUT')).toBe(true);
    expect(error).toMatchObject({ details: { field: 'idempotency_key' } });
  });

  it('will not commit for a call whose claim was taken over', async () => {
    await records.claim(input('b1', key()));
    clock.advance(30_000);
    await records.claim(input('b2', key()));

    await expect(records.markWritten(input('b1', key()), booking('b1'), hold)).rejects.toThrow(
      /Condition failed/,
    );
    expect((await records.find(key()))?.status).toBe('pending');
  });

  it('forgets only a pending claim of its owner', async () => {
    await records.claim(input('b1', key()));
    await records.clear(key(), 'someone-else');
    expect(await records.find(key())).toBeDefined();

    await records.clear(key(), 'b1');
    expect(await records.find(key())).toBeUndefined();

    await records.claim(input('b2', key()));
    await records.markWritten(input('b2', key()), booking('b2'), hold);
    await records.clear(key(), 'b2');
    expect((await records.find(key()))?.status).toBe('written');
  });

  it('forgets a booking after the retention period even while the item lingers', async () => {
    await records.claim(input('b1', key()));
    await records.markWritten(input('b1', key()), booking('b1'), hold);
    clock.advance(IDEMPOTENCY_RETENTION_MS);

    expect(await records.find(key())).toBeUndefined();
    expect(await records.claim(input('b2', key()))).toEqual({ kind: 'claimed' });
  });

  describe('keyed tool calls', () => {
    const call = (owner: string, args: Record<string, unknown> = { summary: 'Standup' }) =>
      records.keyedCall({
        tool: 'create_event',
        principal: 'key:k1',
        clientKey: key(),
        args: { ...args, idempotency_key: key(), format: owner },
        owner,
        ignored: new Set(['idempotency_key', 'format']),
      });

    it('is keyed by principal and tool, and hashes the arguments but the ignored ones, in any order', () => {
      const first = call('c1', { summary: 'Standup', location: 'Room 1' });
      const other = records.keyedCall({
        tool: 'create_calendar',
        principal: 'key:k1',
        clientKey: key(),
        args: {},
        owner: 'c9',
        ignored: new Set(),
      });

      expect(call('c2', { location: 'Room 1', summary: 'Standup' }).request_hash).toBe(first.request_hash);
      expect(call('c2', { summary: 'Retro', location: 'Room 1' }).request_hash).not.toBe(first.request_hash);
      expect(other.key).not.toBe(first.key);
    });

    it('tells a retry to wait while the first call runs, and lets it take over once the lease is over', async () => {
      expect(await records.claimCall(call('c1'))).toEqual({ kind: 'claimed' });

      const waiting = await records.claimCall(call('c2')).catch((error: unknown) => error);
      clock.advance(CALL_LEASE_MS + 1);
      const takenOver = await records.claimCall(call('c3'));

      expect(isDomainError(waiting, 'LOCK_CONTENDED')).toBe(true);
      expect(takenOver).toEqual({ kind: 'claimed' });
    });

    it('replays a completed answer, and forgets a failed call so that its retry runs afresh', async () => {
      await records.claimCall(call('c1'));
      await records.clearCall(call('c1'));
      expect(await records.claimCall(call('c2'))).toEqual({ kind: 'claimed' });
      await records.completeCall(call('c2'), { event_id: 'e1' });

      expect(await records.claimCall(call('c3'))).toEqual({ kind: 'replay', result: { event_id: 'e1' } });
    });
  });
});
