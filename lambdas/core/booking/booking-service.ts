import { type Principal, principalName } from '../access/rights.js';
import type { CalendarService } from '../calendar/calendar-service.js';
import { DomainError } from '../errors.js';
import type { Clock, RandomSource } from '../ports.js';
import { formatInstant, parseInstant } from '../time/instants.js';
import type { BookingResult } from './booking-schemas.js';
import type { BookingWorkflow } from './booking-workflow.js';
import {
  assertSameRequest,
  type IdempotencyRecords,
  requestHash,
  storedIdempotencyKey,
} from './idempotency.js';

/** book_slot's parameters, as the tool validated them. */
export interface BookSlotParams {
  calendar_id: string;
  start: string;
  end: string;
  summary: string;
  description?: string | undefined;
  attendees?: string[] | undefined;
  idempotency_key?: string | undefined;
}

/**
 * The content firewall's check of what an event would say; throws CONTENT_REJECTED. Written
 * elsewhere: book_slot calls it before anything is locked.
 */
export type EventContentCheck = (content: {
  calendar_id: string;
  summary: string;
  description?: string | undefined;
  attendees: string[];
}) => Promise<void>;

/** Longest slot book_slot takes: a week. Longer holds would block a calendar for anything in it. */
export const MAX_SLOT_MS = 7 * 24 * 3_600_000;

export interface BookingServiceDeps {
  calendars: CalendarService;
  idempotency: IdempotencyRecords;
  workflow: BookingWorkflow;
  clock: Clock;
  random: RandomSource;
  /** The content firewall's hook; absent until the firewall is wired in (nothing is checked then). */
  checkEventContent?: EventContentCheck;
}

/**
 * book_slot for one principal: checks the request and the write grant, derives the idempotency
 * key, answers a completed booking from its record without running the workflow again, and
 * otherwise runs the workflow (lock → verify → write → release).
 *
 * @example
 * const booking = await service.book(principal, { calendar_id, start, end, summary: 'Standup' });
 */
export class BookingService {
  constructor(private readonly deps: BookingServiceDeps) {}

  async book(principal: Principal, params: BookSlotParams): Promise<BookingResult> {
    const start = parseInstant(params.start, 'start');
    const end = parseInstant(params.end, 'end');
    this.checkSlot(start.toMillis(), end.toMillis());
    const calendar = await this.deps.calendars.calendarFor(principal, params.calendar_id, 'write');
    if (calendar.access_role !== 'owner' && calendar.access_role !== 'writer') {
      throw new DomainError(
        'FORBIDDEN',
        `Calendar "${calendar.calendar_id}" is read-only at its provider (${calendar.access_role}); book on a calendar you can write to (list_calendars shows can_write).`,
        { calendar_id: calendar.calendar_id },
      );
    }
    const attendees = params.attendees ?? [];
    // CONTENT FIREWALL HOOK: the firewall's checkEventContent runs here, before anything is held.
    await this.deps.checkEventContent?.({
      calendar_id: calendar.calendar_id,
      summary: params.summary,
      description: params.description,
      attendees,
    });

    const hash = requestHash({
      calendar_id: calendar.calendar_id,
      start_ms: start.toMillis(),
      end_ms: end.toMillis(),
      summary: params.summary,
      description: params.description,
      attendees,
    });
    const key = storedIdempotencyKey(principalName(principal), params.idempotency_key, hash);
    const existing = await this.deps.idempotency.find(key);
    if (existing?.status === 'completed' && existing.booking) {
      assertSameRequest(existing, hash);
      return { ...existing.booking, idempotent_replay: true };
    }
    return this.deps.workflow.book({
      booking_id: this.deps.random.uuid(),
      idempotency_key: key,
      request_hash: hash,
      principal: principalName(principal),
      calendar,
      start: formatInstant(start),
      end: formatInstant(end),
      summary: params.summary,
      ...(params.description ? { description: params.description } : {}),
      ...(attendees.length > 0 ? { attendees } : {}),
    });
  }

  private checkSlot(startMs: number, endMs: number): void {
    if (!(endMs > startMs)) {
      throw new DomainError('INVALID_INPUT', '"end" must be after "start".', { field: 'end' });
    }
    if (endMs - startMs > MAX_SLOT_MS) {
      throw new DomainError('INVALID_INPUT', 'A slot may last at most 7 days; book shorter slots.', {
        field: 'end',
      });
    }
    if (endMs <= this.deps.clock.now().getTime()) {
      throw new DomainError(
        'INVALID_INPUT',
        'The slot is already over. Check the date (get_temporal_context gives the current time) and book a future slot.',
        { field: 'end' },
      );
    }
  }
}
