import type { Interval } from '../calendar/busy-intervals.js';
import { MINUTE_MS } from './time-window.js';

/**
 * The slots of a gap start from its first quarter hour: every UTC offset in use today is a whole
 * number of quarter hours, so this is a quarter hour on every local clock too, and a slot after an
 * event that ends at 10:07 starts at 10:15 rather than at an odd minute.
 */
const SLOT_ALIGNMENT_MS = 15 * MINUTE_MS;

/**
 * Cuts free gaps into back-to-back slots of exactly `slotMinutes`, from the first quarter hour of
 * each gap, in order, at most `max` of them. A gap too short for one aligned slot yields none.
 *
 * @example
 * bookableSlots([{ start: Date.parse('2026-03-02T09:05:00Z'), end: Date.parse('2026-03-02T11:00:00Z') }], 45, 10);
 * // [{ start: …T09:15Z, end: …T10:00Z }, { start: …T10:00Z, end: …T10:45Z }]
 */
export function bookableSlots(gaps: readonly Interval[], slotMinutes: number, max: number): Interval[] {
  const slotMs = slotMinutes * MINUTE_MS;
  const slots: Interval[] = [];
  for (const gap of gaps) {
    let start = Math.ceil(gap.start / SLOT_ALIGNMENT_MS) * SLOT_ALIGNMENT_MS;
    while (start + slotMs <= gap.end) {
      if (slots.length >= max) return slots;
      slots.push({ start, end: start + slotMs });
      start += slotMs;
    }
  }
  return slots;
}
