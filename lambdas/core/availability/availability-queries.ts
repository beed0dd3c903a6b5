import type { Principal } from '../access/rights.js';
import type { Interval } from '../calendar/busy-intervals.js';
import type { CalendarService } from '../calendar/calendar-service.js';
import type { CallWork } from '../call-work.js';
import { CALENDARS_READ_AT_ONCE, mapWithConcurrency } from '../concurrency.js';
import type { ShadowCalendar } from '../ports/index.js';
import { parseWindow } from '../time/window.js';
import { requireZone } from '../time/zones.js';
import { type AvailabilityPrivacy, availabilityView } from './availability-view.js';
import { bookableSlots } from './bookable-slots.js';
import {
  type ActiveHolds,
  type CalendarBusy,
  calendarBusy,
  calendarBusyAndHolds,
  type ViewFreshness,
} from './calendar-busy.js';
import { freeSlots } from './free-slots.js';
import { localSpan } from './local-span.js';
import { isSlotFree } from './slot-check.js';
import { MINUTE_MS, wholeMinutes } from './time-window.js';
import { parseWorkingHours, type WorkingHours } from './working-hours.js';

export interface AvailabilityDeps {
  calendars: CalendarService;
  shadow: ShadowCalendar;
  activeHolds: ActiveHolds;
}

export interface SlotOptions {
  working_hours?: string | undefined;
  working_days?: number[] | undefined;
  timezone?: string | undefined;
  /** Shorthand for both sides; the per-side buffers override it. */
  buffer_minutes?: number | undefined;
  buffer_before_minutes?: number | undefined;
  buffer_after_minutes?: number | undefined;
}

/** Longest window an availability question may span. */
const MAX_WINDOW_DAYS = 93;

function windowOf(start: string, end: string): { from: number; to: number } {
  return parseWindow(start, end, MAX_WINDOW_DAYS);
}

/** The asked zone, checked before anything is read; answers fall back to the calendar's. */
function askedZone(options: SlotOptions): string | undefined {
  return options.timezone ? requireZone(options.timezone).name : undefined;
}

function workingHoursOf(options: SlotOptions, zone: string): WorkingHours | undefined {
  // Checked even without working_hours: a zone that is silently ignored reads as accepted.
  if (options.timezone !== undefined) requireZone(options.timezone, 'timezone');
  return options.working_hours
    ? parseWorkingHours(options.working_hours, options.timezone ?? zone, options.working_days)
    : undefined;
}

/** The buffers in minutes, per side: the per-side option, else the shorthand, else none. */
function buffersOf(options: SlotOptions): { bufferBeforeMinutes: number; bufferAfterMinutes: number } {
  return {
    bufferBeforeMinutes: options.buffer_before_minutes ?? options.buffer_minutes ?? 0,
    bufferAfterMinutes: options.buffer_after_minutes ?? options.buffer_minutes ?? 0,
  };
}

async function busyOf(
  deps: AvailabilityDeps,
  principal: Principal,
  calendarId: string,
  from: number,
  to: number,
  buffers: { bufferBeforeMinutes: number; bufferAfterMinutes: number } = {
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
  },
  work?: CallWork,
) {
  // A buffer reaches outside the window: an event just before it still pads into it (its
  // after-buffer), and one just after it pads back into it (its before-buffer).
  const early = buffers.bufferAfterMinutes * MINUTE_MS;
  const late = buffers.bufferBeforeMinutes * MINUTE_MS;
  return calendarBusy(deps, principal, calendarId, from - early, to + late, work);
}

/**
 * find_free_slots: gaps of at least `min_duration_minutes` in one calendar over [start, end),
 * or, with `slot_minutes`, bookable slots of exactly that length cut from those gaps (see
 * {@link bookableSlots}); at most `max_results`. Optionally cut to working hours (in `timezone`,
 * else the calendar's zone) and kept clear of events by the buffers. Times are given in UTC and
 * in that zone.
 */
export async function findFreeSlots(
  deps: AvailabilityDeps,
  principal: Principal,
  input: SlotOptions & {
    calendar_id: string;
    start: string;
    end: string;
    min_duration_minutes: number;
    slot_minutes?: number | undefined;
    max_results: number;
  },
  work?: CallWork,
) {
  const { from, to } = windowOf(input.start, input.end);
  const asked = askedZone(input);
  const buffers = buffersOf(input);
  const busy = await busyOf(deps, principal, input.calendar_id, from, to, buffers, work);
  const zone = asked ?? busy.zone;
  const workingHours = workingHoursOf(input, busy.zone);
  const gaps = freeSlots(busy.intervals, from, to, {
    // A gap shorter than the slot cannot hold one; with no slot length, the caller's minimum.
    minDurationMinutes: input.slot_minutes ?? input.min_duration_minutes,
    ...buffers,
    ...(workingHours ? { workingHours } : {}),
  });
  // One more than asked tells whether the answer was cut short.
  const found = input.slot_minutes
    ? bookableSlots(gaps, input.slot_minutes, input.max_results + 1)
    : gaps.slice(0, input.max_results + 1);
  const slots = found.slice(0, input.max_results).map((slot) => ({
    ...localSpan(slot.start, slot.end, zone),
    duration_minutes: wholeMinutes(slot.end - slot.start),
  }));
  return {
    slots,
    count: slots.length,
    ...(found.length > input.max_results ? { more: true } : {}),
    timezone: zone,
    freshness: busy.freshness,
  };
}

/**
 * check_availability: whether [start, end) is free — no blocking event and no active booking
 * hold on any part of it. Touching an event's edge is free. Conflicts are listed.
 */
export async function checkAvailability(
  deps: AvailabilityDeps,
  principal: Principal,
  input: { calendar_id: string; start: string; end: string },
  work?: CallWork,
) {
  const { from, to } = windowOf(input.start, input.end);
  const { busy, holds } = await calendarBusyAndHolds(deps, principal, input.calendar_id, from, to, work);
  const holdIntervals = holds.map((h) => ({
    start: h.start_ms,
    end: h.end_ms,
    event_id: h.booked?.event_id,
  }));
  const verdict = isSlotFree(busy.intervals, holdIntervals, { start: from, end: to });
  const conflicts = verdict.conflicts.map((c) => ({
    kind: c.kind === 'busy' ? ('event' as const) : ('booking_hold' as const),
    ...localSpan(c.interval.start, c.interval.end, busy.zone),
    ...(c.interval.event_id ? { event_id: c.interval.event_id } : {}),
  }));
  return {
    available: verdict.available,
    calendar_id: input.calendar_id,
    conflicts,
    timezone: busy.zone,
    freshness: busy.freshness,
  };
}

/**
 * get_availability: several calendars merged into one busy/free view. `full` privacy reports how
 * many calendars are busy in each busy block (`source_count`); `opaque` leaves the count out.
 */
export async function getAvailability(
  deps: AvailabilityDeps,
  principal: Principal,
  input: SlotOptions & {
    start: string;
    end: string;
    privacy: AvailabilityPrivacy;
    min_free_slot_minutes: number;
    calendar_ids?: string[] | undefined;
  },
  work?: CallWork,
) {
  const { from, to } = windowOf(input.start, input.end);
  const asked = askedZone(input);
  const ids =
    input.calendar_ids ??
    (await deps.calendars.requireReadableCalendars(principal)).map((calendar) => calendar.calendar_id);
  const buffers = buffersOf(input);
  const busy: CalendarBusy[] = await mapWithConcurrency(ids, CALENDARS_READ_AT_ONCE, (id) =>
    busyOf(deps, principal, id, from, to, buffers, work),
  );
  const calendarZone = busy[0]?.zone ?? deps.calendars.zone;
  const zone = asked ?? calendarZone;
  const workingHours = workingHoursOf(input, calendarZone);
  const view = availabilityView(
    busy.map((b) => b.intervals as Interval[]),
    from,
    to,
    {
      privacy: input.privacy,
      minFreeSlotMinutes: input.min_free_slot_minutes,
      ...buffers,
      ...(workingHours ? { workingHours } : {}),
    },
  );
  return {
    busy: view.busy.map((b) => ({
      ...localSpan(b.start, b.end, zone),
      ...(b.source_count === undefined ? {} : { source_count: b.source_count }),
    })),
    free: view.free.map((f) => ({
      ...localSpan(f.start, f.end, zone),
      duration_minutes: f.duration_minutes,
    })),
    calendars_merged: view.calendars_merged,
    privacy: view.privacy,
    timezone: zone,
    freshness: busy.map((b) => b.freshness) satisfies ViewFreshness[],
  };
}
