import { once } from '../core/once.js';
import type { DepsSlice, KeyedWrites, SliceDeps, SliceLoader } from '../mcp/deps.js';
import type { Platform } from './compose.js';
import type { PartLoader } from './wiring.js';

/**
 * Each MCP slice from the parts its tools use, and no other: a calendar call builds the
 * calendars, not booking, rules or memory; the idempotency records only when a keyed write
 * asks for them (`keyedWrites`).
 */
const SLICE_BUILDERS: {
  [Slice in DepsSlice]: (platform: Platform, part: PartLoader) => Promise<SliceDeps[Slice]>;
} = {
  time: async ({ clock, defaultTimezone }) => ({ clock, defaultTimezone }),
  calendar: async (platform, part) => {
    const [time, calendars] = await Promise.all([SLICE_BUILDERS.time(platform, part), part('calendars')]);
    return { ...time, calendars, ...keyedWrites(part) };
  },
  availability: async (platform, part) => {
    const [calendar, { shadow }, locks] = await Promise.all([
      SLICE_BUILDERS.calendar(platform, part),
      part('providers'),
      part('locks'),
    ]);
    // Read-only use of book_slot's locks: check_availability treats an active hold as busy.
    return {
      ...calendar,
      shadow,
      activeHolds: async (calendarId) => (await locks.activeHolds(calendarId)).holds,
    };
  },
  booking: async (platform, part) => {
    const [availability, booking] = await Promise.all([
      SLICE_BUILDERS.availability(platform, part),
      part('booking'),
    ]);
    return { ...availability, booking };
  },
  rules: async (platform, part) => {
    const [time, rules] = await Promise.all([SLICE_BUILDERS.time(platform, part), part('rules')]);
    return { ...time, ...keyedWrites(part), rules };
  },
  // Each memory tool's slice adds one area to the memory service, so that a first list_branches
  // loads no idempotency records, search index, snapshot or grounding code.
  memory: async (platform, part) => {
    const [time, memory] = await Promise.all([SLICE_BUILDERS.time(platform, part), part('memory')]);
    return { ...time, memory };
  },
  memoryWrites: async (platform, part) => ({
    ...(await SLICE_BUILDERS.memory(platform, part)),
    ...keyedWrites(part),
  }),
  memoryInsights: async (platform, part) => {
    const [writes, insights] = await Promise.all([
      SLICE_BUILDERS.memoryWrites(platform, part),
      part('insights'),
    ]);
    return { ...writes, insights };
  },
  memorySnapshots: async (platform, part) => {
    const [writes, snapshots] = await Promise.all([
      SLICE_BUILDERS.memoryWrites(platform, part),
      part('snapshots'),
    ]);
    return { ...writes, snapshots };
  },
  memorySearch: async (platform, part) => {
    const [memory, search] = await Promise.all([SLICE_BUILDERS.memory(platform, part), part('search')]);
    return { ...memory, search };
  },
};

/** The idempotency records as a slice holds them: built (once, for every slice) by the first keyed write. */
function keyedWrites(part: PartLoader): KeyedWrites {
  return { idempotency: () => part('idempotency') };
}

/**
 * The tools' slices over a platform's parts: what `McpServerDeps.toolDeps` answers. A slice is
 * assembled once; the parts under it are shared with every other slice.
 *
 * @example
 * const toolDeps = sliceLoaderOver(platform, wireParts(platform));
 * (await toolDeps('calendar')).calendars; // built now, with no booking, rules or memory
 */
export function sliceLoaderOver(platform: Platform, part: PartLoader): SliceLoader {
  const assembled = new Map<DepsSlice, () => Promise<unknown>>();
  return (slice) => {
    let make = assembled.get(slice);
    if (!make) {
      make = once(() => SLICE_BUILDERS[slice](platform, part));
      assembled.set(slice, make);
    }
    return make() as Promise<SliceDeps[typeof slice]>;
  };
}
