import type { IANAZone } from './luxon.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export interface OffsetTransition {
  /** The first instant (epoch ms) at which the new offset applies. */
  at: number;
  offsetBefore: number;
  offsetAfter: number;
}

/**
 * The first UTC offset change strictly after `fromMs`, scanning at most `maxDays` ahead.
 * Steps a day at a time (zones never change offset twice in a day), then bisects to the minute —
 * about 400 + 11 offset look-ups instead of half a million.
 */
export function nextOffsetTransition(
  zone: IANAZone,
  fromMs: number,
  maxDays = 400,
): OffsetTransition | undefined {
  // Transitions fall on whole minutes, so probing whole minutes finds the exact one.
  const base = Math.floor(fromMs / MINUTE_MS) * MINUTE_MS;
  const startOffset = zone.offset(base);
  let low = base;
  for (let day = 1; day <= maxDays; day++) {
    const probe = base + day * DAY_MS;
    if (zone.offset(probe) === startOffset) {
      low = probe;
      continue;
    }
    let high = probe;
    // Invariant: offset(low) === startOffset, offset(high) !== startOffset.
    while (high - low > MINUTE_MS) {
      const mid = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
      if (zone.offset(mid) === startOffset) low = mid;
      else high = mid;
    }
    return { at: high, offsetBefore: startOffset, offsetAfter: zone.offset(high) };
  }
  return undefined;
}
