import { LocalBookingWorkflow } from '../../../lambdas/adapters/workflow/local-booking-workflow.js';
import { LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import type { Hold } from '../../../lambdas/core/booking/booking-schemas.js';
import { BookingService, type BookSlotParams } from '../../../lambdas/core/booking/booking-service.js';
import { createBookingSteps } from '../../../lambdas/core/booking/booking-steps.js';
import {
  IdempotencyRecords,
  requestHash,
  storedIdempotencyKey,
} from '../../../lambdas/core/booking/idempotency.js';
import { lockKey } from '../../../lambdas/core/booking/slot-locks.js';
import type { CalendarRecord } from '../../../lambdas/core/calendar/calendar-registry.js';
import type { CalendarEvent, EventDraft } from '../../../lambdas/core/calendar/event.js';
import type {
  BookingStepName,
  BookingSteps,
  BusyInterval,
  CalendarProvider,
  Clock,
  Freshness,
  ShadowCalendar,
} from '../../../lambdas/core/ports/index.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/** A clock the test moves by hand: hold expiry without sleeping. */
export class ManualClock implements Clock {
  #now: number;
  constructor(start: string) {
    this.#now = Date.parse(start);
  }
  now(): Date {
    return new Date(this.#now);
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}

/** What a test reads back of a booking recorded in the shadow calendar. */
export interface RecordedBooking {
  event_id: string;
  summary: string;
  start: string;
  end: string;
}

/**
 * A shadow calendar that remembers what was recorded and can be told about busy intervals. Its
 * answers always claim a fresh sync, so Verify trusts them.
 */
export class RecordingShadow implements ShadowCalendar {
  readonly recorded: { calendarId: string; booking: RecordedBooking }[] = [];
  readonly busy: BusyInterval[] = [];
  async busyIntervals(calendar: string | CalendarRecord, fromMs: number, toMs: number) {
    // The booking steps pass the record the booking carries; they never read one by id.
    if (typeof calendar === 'string') throw new Error(`RecordingShadow: asked by id (${calendar})`);
    const intervals = this.busy.filter((b) => b.start < toMs && fromMs < b.end);
    return { intervals, synced_at: NOW, calendar };
  }
  async recordBooking(calendarId: string, event: CalendarEvent): Promise<void> {
    const instant = (time: CalendarEvent['start']) => ('date_time' in time ? time.date_time : time.date);
    this.recorded.push({
      calendarId,
      booking: {
        event_id: event.id,
        summary: event.summary,
        start: instant(event.start),
        end: instant(event.end),
      },
    });
  }
  async freshness(): Promise<Freshness> {
    return { synced_at: NOW, age_seconds: 0 };
  }
}

/** The summary of the booking a step payload belongs to, to aim a fault at one booker. */
export function summaryOf(input: unknown): string {
  return (input as { summary?: string }).summary ?? '';
}

/** An error no Retry matches and only a Catch of States.ALL catches: the process is gone. */
export function processDied(): Error {
  const error = new Error('the process running this step died');
  error.name = 'ProcessDied';
  return error;
}

export interface Faults {
  /** Runs before a step; throw to fail it (the step itself then does not run). */
  before: Partial<Record<BookingStepName, (input: unknown) => Promise<void> | void>>;
  /** Runs before the provider creates an event; throw to fail the provider write. */
  beforeCreateEvent?: (draft: EventDraft) => Promise<void> | void;
}

export const NOW = '2026-06-01T00:00:00Z';
export const TTL_SECONDS = 30;

/**
 * The booking stack of composeDeps, built by hand so a test can inject faults at every step
 * boundary and into the provider: real steps on a real store (dynalite), the real local state
 * machine, a native calendar, a manual clock.
 */
export async function startBookingHarness(options: { endpoint?: string } = {}) {
  const clock = new ManualClock(NOW);
  const runtime: TestRuntime = await startTestRuntime({
    clock,
    defaultTimezone: 'UTC',
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
  });
  const shadow = new RecordingShadow();
  const faults: Faults = { before: {} };
  const lockTtlMs = TTL_SECONDS * 1000;
  const calendars = {
    providerFor: async (record: CalendarRecord) => {
      const { provider, ref } = await runtime.calendars.providerFor(record);
      return { provider: faultyProvider(provider, faults), ref };
    },
  };
  const steps = createBookingSteps({
    store: runtime.store,
    clock,
    random: runtime.random,
    pause: async () => undefined,
    calendars,
    shadow,
    lockTtlMs,
    defaultTimezone: 'UTC',
  });
  const workflow = new LocalBookingWorkflow({ steps: withFaults(steps, faults), retryDelayMs: 0 });
  const service = new BookingService({
    calendars: runtime.calendars,
    idempotency: new IdempotencyRecords({ store: runtime.store, clock, leaseMs: lockTtlMs }),
    workflow,
    clock,
    random: runtime.random,
  });
  const calendarId = (
    await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Faults', time_zone: 'UTC' })
  ).id;
  const entries = async () => {
    const item = await runtime.store.get(lockKey(calendarId), { consistent: true });
    return (item?.holds ?? []) as Hold[];
  };

  return {
    runtime,
    clock,
    shadow,
    faults,
    calendarId,
    book: (params: Omit<BookSlotParams, 'calendar_id'>) =>
      service.book(LOCAL_OWNER, { calendar_id: calendarId, ...params }),
    /** Every event of the calendar in June 2026, straight from the provider. */
    async events() {
      const record = await runtime.registry.requireCalendar(calendarId);
      const { provider, ref } = await runtime.calendars.providerFor(record);
      const page = await provider.listEvents(ref, {
        start: '2026-06-01T00:00:00Z',
        end: '2026-07-01T00:00:00Z',
        single_events: true,
        max_results: 100,
      });
      return page.events;
    },
    /** The holds stored on the calendar's lock item (expired ones included), not the booked entries. */
    async holds() {
      return (await entries()).filter((h) => !h.booked);
    },
    /** The entries that stand for bookings just made (released holds). */
    async booked() {
      return (await entries()).filter((h) => h.booked).map((h) => h.booked!);
    },
    /** The idempotency record of a booking made without idempotency_key, or with `key`. */
    async claim(params: { start: string; end: string; summary: string }, key?: string) {
      const hash = requestHash({
        calendar_id: calendarId,
        start_ms: Date.parse(params.start),
        end_ms: Date.parse(params.end),
        summary: params.summary,
      });
      return runtime.store.get({
        pk: `IDEM#${storedIdempotencyKey('local-owner', key, hash)}`,
        sk: 'BOOKING',
      });
    },
    close: () => runtime.close(),
  };
}

export type BookingHarness = Awaited<ReturnType<typeof startBookingHarness>>;

function withFaults(steps: BookingSteps, faults: Faults): BookingSteps {
  const wrap = (name: BookingStepName) => async (input: unknown) => {
    await faults.before[name]?.(input);
    return steps[name](input);
  };
  return {
    lock: wrap('lock'),
    verify: wrap('verify'),
    write: wrap('write'),
    release: wrap('release'),
    compensate: wrap('compensate'),
  };
}

function faultyProvider(provider: CalendarProvider, faults: Faults): CalendarProvider {
  return new Proxy(provider, {
    get(target, property, receiver) {
      if (property === 'createEvent') {
        return async (...args: Parameters<CalendarProvider['createEvent']>) => {
          await faults.beforeCreateEvent?.(args[1]);
          return target.createEvent(...args);
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
