import type { Principal } from '../access/rights.js';
import { DomainError, isDomainError } from '../errors.js';
import type { AvailabilityDeps } from './availability-queries.js';
import { bookableSlots } from './bookable-slots.js';
import { calendarBusyAndHolds } from './calendar-busy.js';
import { freeSlots } from './free-slots.js';
import { type LocalSpan, localSpan } from './local-span.js';
import { MINUTE_MS } from './time-window.js';

/** How far ahead alternatives are looked for: a week covers "later today" to "same time next week". */
const SEARCH_DAYS = 7;
/** Alternatives offered with SLOT_TAKEN: enough to choose from, few enough to read at a glance. */
export const ALTERNATIVES = 3;

/**
 * The next free slots of the calendar as long as [start, end), from `start` (or `now`, if later)
 * on: no blocking event and no active booking hold overlaps them. Times in the calendar's zone.
 *
 * @example
 * await nextFreeSlots(deps, principal, { calendar_id, start, end, now }); // up to 3 LocalSpans
 */
export async function nextFreeSlots(
  deps: AvailabilityDeps,
  principal: Principal,
  input: { calendar_id: string; start: number; end: number; now: number },
): Promise<LocalSpan[]> {
  const from = Math.max(input.start, input.now);
  const to = from + SEARCH_DAYS * 24 * 60 * MINUTE_MS + (input.end - input.start);
  const { busy, holds } = await calendarBusyAndHolds(deps, principal, input.calendar_id, from, to);
  const blocking = [...busy.intervals, ...holds.map((h) => ({ start: h.start_ms, end: h.end_ms }))];
  const slotMinutes = (input.end - input.start) / MINUTE_MS;
  const gaps = freeSlots(blocking, from, to, { minDurationMinutes: slotMinutes });
  return bookableSlots(gaps, slotMinutes, ALTERNATIVES).map((slot) =>
    localSpan(slot.start, slot.end, busy.zone),
  );
}

/**
 * SLOT_TAKEN with the next free slots of the same length added (`details.suggestions`), so the
 * caller can book again without searching. Finding them is a courtesy: if it fails, the original
 * error is returned unchanged rather than hiding why the booking was refused.
 */
export async function slotTakenWithSuggestions(
  deps: AvailabilityDeps,
  principal: Principal,
  taken: DomainError,
  slot: { calendar_id: string; start: number; end: number; now: number },
): Promise<DomainError> {
  let suggestions: LocalSpan[];
  try {
    suggestions = await nextFreeSlots(deps, principal, slot);
  } catch (error) {
    if (isDomainError(error)) return taken;
    throw error;
  }
  const offered =
    suggestions.length > 0
      ? ` Free slots of the same length start at ${suggestions.map((s) => s.start_local).join(', ')} (details.suggestions).`
      : ` No free slot of the same length in the next ${SEARCH_DAYS} days.`;
  return new DomainError(
    taken.code,
    taken.message + offered,
    { ...taken.details, suggestions },
    { cause: taken },
  );
}
