import { calendarZone } from '../calendar/calendar-zone.js';
import { type BookingParts, slotOf } from './booking-parts.js';
import { VerifyState } from './booking-schemas.js';
import { providerConflict, slotTakenByEvent, slotTakenByShadow } from './slot-conflicts.js';
import { holdLost } from './step-errors.js';

/**
 * The Verify state: checks the slot against other holds, the shadow calendar and the live
 * provider. The hold and the shadow are read together; they are decided in that order.
 */
export async function verify({ deps, locks }: BookingParts, raw: unknown): Promise<Record<string, never>> {
  const input = VerifyState.parse(raw);
  const calendarId = input.calendar.calendar_id;
  const slot = slotOf(input);
  const zone = calendarZone(input.calendar, deps.defaultTimezone);
  const held = locks.isHeld(calendarId, input.lock.hold);
  // The calendar's record as the booking carries it, as Write resolves its provider from: read
  // again here it would cost a round trip before the events can be read.
  const shadowRead = deps.shadow.busyIntervals(input.calendar, slot.start_ms, slot.end_ms);
  // Decided after the hold, as if read after it: a lost hold wins over a failed shadow read.
  shadowRead.catch(() => undefined);
  if (!(await held)) throw holdLost();
  const shadow = await shadowRead;
  const [busy] = shadow.intervals.filter((b) => b.start < slot.end_ms && slot.start_ms < b.end);
  if (busy) throw slotTakenByShadow(busy, zone, calendarId);

  // A native calendar's shadow answer is the calendar itself (the table, read through its
  // provider): whole, it leaves nothing for a second read to find. An `incomplete` answer is
  // used as it is: the live read below expands from the slot's own start, so a dense series
  // that overlaps the slot is found there.
  if (shadow.live && !shadow.incomplete) return {};
  const { provider, ref } = await deps.calendars.providerFor(input.calendar);
  const conflict = await providerConflict(provider, ref, zone, slot, input);
  if (conflict) throw slotTakenByEvent(conflict, zone, calendarId);
  return {};
}
