import { intlOffsetMs } from './intl-offset.js';
import type { Zone } from './luxon.js';

/**
 * The one conversion from a wall-clock reading in a zone to an instant. A wall time is carried
 * as "wall milliseconds": the epoch milliseconds of the same calendar fields read as UTC
 * (2026-03-01T09:00 local → Date.UTC(2026, 2, 1, 9)), so nothing depends on the host's TZ.
 *
 * Two DST edge cases have no single right answer, so every caller names its policy:
 *
 * gap — the wall time is skipped (spring forward: 02:30 on a 02:00→03:00 night):
 * - `'shift-forward'`: read it with the offset in force BEFORE the gap, which lands as far past
 *   the jump as it was past the last valid time: 02:30 → 03:30. RFC 5545 §3.3.5 prescribes this
 *   (as do Python's zoneinfo with fold=0, luxon and Temporal's "compatible").
 * - `'transition'`: the instant the clock jumps over it: 02:30 → 03:00. "The first moment the
 *   clock reads this time or later", so a 02:30–03:15 working shift cannot end before it starts.
 * - `'reject'`: no instant; the caller reports the time as non-existent.
 *
 * overlap — the wall time is shown twice (fall back: 01:30 on a 02:00→01:00 night):
 * - `'earlier'`: the first occurrence (still on summer time). RFC 5545 §3.3.5; zoneinfo fold=0.
 * - `'later'`: the second occurrence (zoneinfo fold=1).
 *
 * Callers: RRULE expansion, event times and CalDAV/Google wall times use {@link RFC_5545};
 * resolve_datetime uses {@link RFC_5545} too (an agent's "2:30" on a spring-forward night means
 * the time the clock would show had it not jumped); working hours use {@link CLOCK_READS}.
 */

export type GapPolicy = 'shift-forward' | 'transition' | 'reject';
export type OverlapPolicy = 'earlier' | 'later';
export interface DstPolicy {
  gap: GapPolicy;
  overlap: OverlapPolicy;
}

/** RFC 5545's reading: a skipped time uses the offset before the gap, a repeated one is the first. */
export const RFC_5545 = { gap: 'shift-forward', overlap: 'earlier' } as const satisfies DstPolicy;

/** The first moment the zone's clock reads the wall time or any later one. */
export const CLOCK_READS = { gap: 'transition', overlap: 'earlier' } as const satisfies DstPolicy;

/** A zone's UTC offset, in milliseconds, at an epoch millisecond (e.g. a caching ZoneOffsets). */
export interface OffsetLookup {
  offsetAt(epochMs: number): number;
}

const DAY_MS = 86_400_000;

/**
 * The instant (epoch ms) at which `zone`'s clocks show `wallMs`, under `policy`; null only when
 * the policy rejects a skipped time. `zone` is an IANA name, a luxon zone or an {@link OffsetLookup}.
 *
 * @example
 * wallClockToInstant(Date.UTC(2026, 2, 8, 2, 30), 'America/New_York', RFC_5545) === Date.UTC(2026, 2, 8, 7, 30); // 03:30 EDT
 * wallClockToInstant(Date.UTC(2026, 2, 8, 2, 30), 'America/New_York', CLOCK_READS) === Date.UTC(2026, 2, 8, 7); // 03:00 EDT
 * wallClockToInstant(Date.UTC(2026, 10, 1, 1, 30), 'America/New_York', { gap: 'reject', overlap: 'later' }); // 01:30 EST
 */
export function wallClockToInstant(
  wallMs: number,
  zone: string | Zone | OffsetLookup,
  policy: DstPolicy & { gap: 'shift-forward' | 'transition' },
): number;
export function wallClockToInstant(
  wallMs: number,
  zone: string | Zone | OffsetLookup,
  policy: DstPolicy,
): number | null;
export function wallClockToInstant(
  wallMs: number,
  zone: string | Zone | OffsetLookup,
  policy: DstPolicy,
): number | null {
  const offsetAt = offsetLookup(zone);
  // Every real offset lies within ±16 h, so any instant showing this wall time is within a day of
  // it, and the offsets a day either side are those before and after any change near it. (No
  // zone changed its offset twice within ~4 days, so at most one change lies in between.)
  const before = offsetAt(wallMs - DAY_MS);
  const after = offsetAt(wallMs + DAY_MS);
  if (before === after) return wallMs - before;
  const readBefore = wallMs - before;
  const readAfter = wallMs - after;
  const validBefore = offsetAt(readBefore) === before;
  const validAfter = offsetAt(readAfter) === after;
  if (validBefore && validAfter) {
    const [earlier, later] = readBefore < readAfter ? [readBefore, readAfter] : [readAfter, readBefore];
    return policy.overlap === 'earlier' ? earlier : later;
  }
  if (validBefore) return readBefore;
  if (validAfter) return readAfter;
  if (policy.gap === 'reject') return null;
  if (policy.gap === 'shift-forward') return readBefore;
  return transitionPast(wallMs, readAfter, readBefore, offsetAt);
}

/**
 * The instant the clock jumps over a skipped wall time. Neither luxon nor Intl exposes zone
 * transitions, so this bisects: at `low` the clock still reads earlier than the wall time, at
 * `high` it reads later, and one transition lies between. About 22 offset readings, only for a
 * time inside a gap.
 */
function transitionPast(wallMs: number, low: number, high: number, offsetAt: (ms: number) => number): number {
  const readsAtLeast = (t: number) => t + offsetAt(t) >= wallMs;
  let below = low;
  let above = high;
  if (readsAtLeast(below)) return below;
  while (above - below > 1) {
    const mid = Math.floor((below + above) / 2);
    if (readsAtLeast(mid)) above = mid;
    else below = mid;
  }
  return above;
}

function offsetLookup(zone: string | Zone | OffsetLookup): (epochMs: number) => number {
  if (typeof zone === 'string') return (epochMs) => intlOffsetMs(zone, epochMs);
  if ('offsetAt' in zone) return (epochMs) => zone.offsetAt(epochMs);
  return (epochMs) => zone.offset(epochMs) * 60_000;
}
