import { type Principal, principalName } from '../access/rights.js';
import type { CalendarService } from '../calendar/calendar-service.js';
import { type EventTimeInput, eventSpanInstants } from '../calendar/event-time.js';
import { DomainError } from '../errors.js';
import type { BookingWorkflow, Clock, RandomSource } from '../ports/index.js';
import { formatInstant } from '../time/instants.js';
import type { BookingResult } from './booking-schemas.js';
import {
  assertSameRequest,
  type IdempotencyRecords,
  requestHash,
  storedIdempotencyKey,
} from './idempotency.js';

/** book_slot's parameters, as the tool validated them. */
export interface BookSlotParams {
  calendar_id: string;
  /** In any form create_event takes; a time without offset is read in the calendar's zone. */
  start: EventTimeInput;
  end: EventTimeInput;
  summary: string;
  description?: string | undefined;
  attendees?: string[] | undefined;
  idempotency_key?: string | undefined;
}

/** The free-text fields of a booking the content firewall reads. */
export interface BookingContent {
  summary: string;
  description?: string | undefined;
  attendees?: readonly { email: string }[] | undefined;
}

/**
 * The content firewall's check of what an event would say (being written separately as
 * `checkEventContent`): returns the fields sanitized, or throws CONTENT_REJECTED. book_slot calls
 * it before anything is locked and books the sanitized text.
 */
export type EventContentCheck = <T extends BookingContent>(fields: T) => T;

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
    const calendar = await this.deps.calendars.calendarFor(principal, params.calendar_id, 'write');
    const zone = this.deps.calendars.zoneOf(calendar);
    const { start, end } = eventSpanInstants(params.start, params.end, zone);
    this.checkSlot(start.toMillis(), end.toMillis());
    if (calendar.access_role !== 'owner' && calendar.access_role !== 'writer') {
      throw new DomainError(
        'FORBIDDEN',
        `Calendar "${calendar.calendar_id}" is read-only at its provider (${calendar.access_role}); book on a calendar you can write to (list_calendars shows can_write).`,
        { calendar_id: calendar.calendar_id },
      );
    }
    // CONTENT FIREWALL HOOK: checkEventContent runs here, before anything is held; what it returns
    // (sanitized text) is what gets booked.
    const raw: BookingContent = {
      summary: params.summary,
      description: params.description,
      attendees: (params.attendees ?? []).map((email) => ({ email })),
    };
    const content = this.deps.checkEventContent ? this.deps.checkEventContent(raw) : raw;
    const summary = content.summary;
    if (summary.trim() === '') {
      // A title of control or invisible characters only is empty once sanitized (found by fuzzing:
      // the workflow refused it deep inside, as an internal error).
      throw new DomainError(
        'INVALID_INPUT',
        'summary has no visible characters once control and invisible characters are removed. Pass a title, e.g. "Call with Dana".',
        { field: 'summary' },
      );
    }
    const description = content.description;
    const attendees = (content.attendees ?? []).map((attendee) => attendee.email);

    const hash = requestHash({
      calendar_id: calendar.calendar_id,
      start_ms: start.toMillis(),
      end_ms: end.toMillis(),
      summary,
      description,
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
      summary,
      ...(description ? { description } : {}),
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
