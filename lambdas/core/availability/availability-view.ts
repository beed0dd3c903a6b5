import type { Interval } from '../calendar/busy-intervals.js';
import { type FreeSlot, type FreeSlotOptions, freeSlots } from './free-slots.js';
import { type BusyBlock, mergeWithSources } from './merge-with-sources.js';

/** `opaque` hides how many calendars make a block busy; `full` shows it. */
export type AvailabilityPrivacy = 'opaque' | 'full';

export interface AvailabilityOptions extends Omit<FreeSlotOptions, 'minDurationMinutes'> {
  /** @default 'opaque' */
  privacy?: AvailabilityPrivacy;
  /** Shortest free slot reported. @default 30 */
  minFreeSlotMinutes?: number;
}

export interface AvailabilityView {
  /** Without `source_count` under `opaque` privacy: a 0 there read as "no calendar is busy". */
  busy: (Omit<BusyBlock, 'source_count'> & { source_count?: number })[];
  free: FreeSlot[];
  calendars_merged: number;
  privacy: AvailabilityPrivacy;
}

/**
 * get_availability: the busy intervals of several calendars merged into one busy/free view of
 * [from, to). Busy blocks carry `source_count` (see {@link BusyBlock}), left out under `opaque`
 * privacy so a caller cannot tell how many calendars are behind a block. Free slots
 * are the gaps between blocks, optionally cut to working hours and kept clear by a buffer.
 *
 * @example
 * availabilityView([[{ start: 0, end: 3_600_000 }], [{ start: 1_800_000, end: 5_400_000 }]], 0, 14_400_000, {
 *   privacy: 'full',
 * });
 * // { busy: [{ start: 0, end: 5_400_000, source_count: 2 }],
 * //   free: [{ start: 5_400_000, end: 14_400_000, duration_minutes: 150 }], calendars_merged: 2, privacy: 'full' }
 */
export function availabilityView(
  intervalsByCalendar: readonly (readonly Interval[])[],
  from: number,
  to: number,
  options: AvailabilityOptions = {},
): AvailabilityView {
  const privacy = options.privacy ?? 'opaque';
  const merged = mergeWithSources(intervalsByCalendar, from, to);
  // Without a buffer the merged blocks give the same gaps more cheaply; with one, the raw
  // intervals are needed, because one that ends just before the window still pads into it.
  const { privacy: _privacy, minFreeSlotMinutes, ...slotOptions } = options;
  const buffered = Boolean(
    options.bufferMinutes || options.bufferBeforeMinutes || options.bufferAfterMinutes,
  );
  const blocking = buffered ? intervalsByCalendar.flat() : merged;
  const free = freeSlots(blocking, from, to, {
    ...slotOptions,
    minDurationMinutes: minFreeSlotMinutes ?? 30,
  });
  const busy = privacy === 'full' ? merged : merged.map(({ start, end }) => ({ start, end }));
  return { busy, free, calendars_merged: intervalsByCalendar.length, privacy };
}
