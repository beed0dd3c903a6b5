import type { Principal } from '../access/rights.js';
import type { Interval } from '../calendar/busy-intervals.js';
import type { CalendarService } from '../calendar/calendar-service.js';
import { DomainError } from '../errors.js';
import type { ShadowCalendar } from '../shadow/shadow-calendar.js';
import { clampedIso } from '../time/instants.js';
import { parseWindow } from '../time/window.js';
import { type AvailabilityPrivacy, availabilityView } from './availability-view.js';
import { type CalendarBusy, calendarBusy, type ViewFreshness } from './calendar-busy.js';
import { freeSlots } from './free-slots.js';
import { isSlotFree } from './slot-check.js';
import { parseWorkingHours, type WorkingHours } from './working-hours.js';

export interface AvailabilityDeps {
  calendars: CalendarService;
  shadow: ShadowCalendar;
  /** Active booking holds of a calendar (book_slot's locks): they make a slot unavailable too. */
  activeHolds(
    calendarId: string,
  ): Promise<{ start_ms: number; end_ms: number; booked?: { event_id: string } }[]>;
}

export interface SlotOptions {
  working_hours?: string | undefined;
  working_days?: number[] | undefined;
  timezone?: string | undefined;
  buffer_minutes?: number | undefined;
}

/** Longest window an availability question may span. */
const MAX_WINDOW_DAYS = 93;
const iso = clampedIso;

function windowOf(start: string, end: string): { from: number; to: number } {
  return parseWindow(start, end, MAX_WINDOW_DAYS);
}

function workingHoursOf(options: SlotOptions, zone: string): WorkingHours | undefined {
  return options.working_hours
    ? parseWorkingHours(options.working_hours, options.timezone ?? zone, options.working_days)
    : undefined;
}

async function busyOf(
  deps: AvailabilityDeps,
  principal: Principal,
  calendarId: string,
  from: number,
  to: number,
  bufferMs: number,
) {
  // A buffer reaches outside the window: an event just before it still pads into it.
  return calendarBusy(deps, principal, calendarId, from - bufferMs, to + bufferMs);
}

/**
 * find_free_slots: gaps of at least `min_duration_minutes` in one calendar over [start, end),
 * optionally cut to working hours (in `timezone`, else the calendar's zone) and kept clear of
 * events by `buffer_minutes` on each side.
 */
export async function findFreeSlots(
  deps: AvailabilityDeps,
  principal: Principal,
  input: SlotOptions & { calendar_id: string; start: string; end: string; min_duration_minutes: number },
) {
  const { from, to } = windowOf(input.start, input.end);
  const bufferMs = (input.buffer_minutes ?? 0) * 60_000;
  const busy = await busyOf(deps, principal, input.calendar_id, from, to, bufferMs);
  const workingHours = workingHoursOf(input, busy.zone);
  const slots = freeSlots(busy.intervals, from, to, {
    minDurationMinutes: input.min_duration_minutes,
    bufferMinutes: input.buffer_minutes ?? 0,
    ...(workingHours ? { workingHours } : {}),
  }).map((slot) => ({ start: iso(slot.start), end: iso(slot.end), duration_minutes: slot.duration_minutes }));
  return { slots, count: slots.length, freshness: busy.freshness };
}

/**
 * check_availability: whether [start, end) is free — no blocking event and no active booking
 * hold on any part of it. Touching an event's edge is free. Conflicts are listed.
 */
export async function checkAvailability(
  deps: AvailabilityDeps,
  principal: Principal,
  input: { calendar_id: string; start: string; end: string },
) {
  const { from, to } = windowOf(input.start, input.end);
  const [busy, holds] = await Promise.all([
    busyOf(deps, principal, input.calendar_id, from, to, 0),
    deps.activeHolds(input.calendar_id),
  ]);
  const holdIntervals = holds.map((h) => ({
    start: h.start_ms,
    end: h.end_ms,
    event_id: h.booked?.event_id,
  }));
  const verdict = isSlotFree(busy.intervals, holdIntervals, { start: from, end: to });
  const conflicts = verdict.conflicts.map((c) => ({
    kind: c.kind === 'busy' ? ('event' as const) : ('booking_hold' as const),
    start: iso(c.interval.start),
    end: iso(c.interval.end),
    ...(c.interval.event_id ? { event_id: c.interval.event_id } : {}),
  }));
  return {
    available: verdict.available,
    calendar_id: input.calendar_id,
    conflicts,
    freshness: busy.freshness,
  };
}

/**
 * get_availability: several calendars merged into one busy/free view. `opaque` privacy reports
 * source_count 0 on every busy block; `full` reports how many calendars are busy in it.
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
) {
  const { from, to } = windowOf(input.start, input.end);
  const ids =
    input.calendar_ids ??
    (await deps.calendars.listCalendars(principal)).filter((c) => c.can_read).map((c) => c.id);
  if (ids.length === 0) {
    throw new DomainError(
      'INVALID_INPUT',
      'No calendar to read: pass calendar_ids, or get read access to a calendar first.',
      {
        field: 'calendar_ids',
      },
    );
  }
  const bufferMs = (input.buffer_minutes ?? 0) * 60_000;
  const busy: CalendarBusy[] = await Promise.all(
    ids.map((id) => busyOf(deps, principal, id, from, to, bufferMs)),
  );
  const workingHours = workingHoursOf(input, busy[0]?.zone ?? deps.calendars.zone);
  const view = availabilityView(
    busy.map((b) => b.intervals as Interval[]),
    from,
    to,
    {
      privacy: input.privacy,
      minFreeSlotMinutes: input.min_free_slot_minutes,
      ...(input.buffer_minutes ? { bufferMinutes: input.buffer_minutes } : {}),
      ...(workingHours ? { workingHours } : {}),
    },
  );
  return {
    busy: view.busy.map((b) => ({ start: iso(b.start), end: iso(b.end), source_count: b.source_count })),
    free: view.free.map((f) => ({
      start: iso(f.start),
      end: iso(f.end),
      duration_minutes: f.duration_minutes,
    })),
    calendars_merged: view.calendars_merged,
    privacy: view.privacy,
    freshness: busy.map((b) => b.freshness) satisfies ViewFreshness[],
  };
}
