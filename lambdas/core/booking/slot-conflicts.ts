import { blocksTime, eventIntervals } from '../calendar/busy-intervals.js';
import type { CalendarEvent } from '../calendar/event.js';
import { DomainError } from '../errors.js';
import type { BusyInterval, CalendarProvider, CalendarRef } from '../ports/index.js';
import { formatInstant } from '../time/instants.js';
import { DateTime } from '../time/luxon.js';
import { overlaps, type SlotInterval } from './slot-locks.js';

/** Events read per page when looking for a conflict; one page nearly always decides. */
const PAGE = 50;
/** A slot overlapped by more than this many non-blocking events is read no further. */
const MAX_PAGES = 20;

/**
 * The first event of the live calendar that blocks the slot: not cancelled, not marked free, and
 * overlapping [start, end) by at least an instant (an event ending exactly at the start does not).
 *
 * @example
 * const conflict = await providerConflict(provider, ref, 'Europe/Paris', slot, { start, end });
 */
export async function providerConflict(
  provider: CalendarProvider,
  ref: CalendarRef,
  zone: string,
  slot: SlotInterval,
  window: { start: string; end: string },
): Promise<CalendarEvent | undefined> {
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = await provider.listEvents(ref, {
      start: window.start,
      end: window.end,
      single_events: true,
      max_results: PAGE,
      ...(pageToken ? { page_token: pageToken } : {}),
    });
    const blocking = listed.events.filter((event) => blocksTime(event));
    const intervals = eventIntervals(blocking, zone);
    const index = intervals.findIndex((interval) =>
      overlaps({ start_ms: interval.start, end_ms: interval.end }, slot),
    );
    if (index >= 0) return blocking[index];
    pageToken = listed.next_page_token;
    if (!pageToken) return undefined;
  }
  return undefined;
}

/**
 * SLOT_TAKEN naming the conflicting event. The caller holds write access to this calendar (the
 * tool checked it), which includes read, so the event's id, summary and times may be shown.
 */
export function slotTakenByEvent(event: CalendarEvent, zone: string, calendarId: string): DomainError {
  const [interval] = eventIntervals([event], zone);
  const start = text(interval?.start ?? 0, zone);
  const end = text(interval?.end ?? 0, zone);
  return new DomainError(
    'SLOT_TAKEN',
    `The slot overlaps "${event.summary}" (${start} – ${end}) on ${calendarId}. Nothing was booked: ` +
      'pick a free slot (find_free_slots with slot_minutes) and call book_slot again.',
    { conflict: { source: 'calendar', event_id: event.id, summary: event.summary, start, end } },
  );
}

/**
 * SLOT_TAKEN from the shadow calendar, naming only the interval: event titles are not kept in the
 * shadow's time index, and the live provider read in Verify names a conflicting event fully.
 */
export function slotTakenByShadow(
  busy: Pick<BusyInterval, 'start' | 'end'>,
  zone: string,
  calendarId: string,
): DomainError {
  const start = text(busy.start, zone);
  const end = text(busy.end, zone);
  return new DomainError(
    'SLOT_TAKEN',
    `The slot overlaps a busy interval (${start} – ${end}) on ${calendarId}. Nothing was booked: ` +
      'pick a free slot (find_free_slots with slot_minutes) and call book_slot again.',
    { conflict: { source: 'shadow', start, end } },
  );
}

function text(ms: number, zone: string): string {
  return formatInstant(DateTime.fromMillis(ms, { zone }));
}
