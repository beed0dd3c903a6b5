import { intlOffsetMs } from '../intl-offset.js';
import type { IANAZone } from '../luxon.js';
import type { OffsetLookup } from '../wall-clock-to-instant.js';
import type { WallMs } from './wall-clock-text.js';

const DAY_MS = 86_400_000;

/**
 * Longest stretch over which two equal offset readings prove the offset did not change in
 * between. The closest pair of offset changes in the tz database (2025b) is ~3.99 days apart
 * (Africa/Freetown, 1939; ~6.96 days since 1970), so two readings at most 2 days apart cannot
 * straddle a change and a change back.
 */
const CONSTANT_OFFSET_SPAN_MS = 2 * DAY_MS;

/** A stretch of time over which the zone's offset is known to be constant. */
interface Stretch {
  from: number;
  to: number;
  offset: number;
}

/** Most stretches remembered at once; the one farthest from the latest lookup is dropped. */
const REMEMBERED_STRETCHES = 8;

/**
 * Offsets for one IANA zone (an {@link OffsetLookup} for wallClockToInstant), remembering the stretches of
 * time already known to have one offset (sorted, disjoint). Recurrence instances arrive in
 * order, so most lookups fall inside one and cost no Intl call. Create one per expansion:
 * nothing is shared, so nothing grows across requests.
 *
 * @example
 * const ny = new ZoneOffsets('America/New_York');
 * wallClockToInstant(Date.UTC(2026, 2, 8, 2, 30), ny, RFC_5545) === Date.UTC(2026, 2, 8, 7, 30); // true: gap → 03:30 EDT
 */
export class ZoneOffsets implements OffsetLookup {
  readonly zoneName: string;
  private readonly stretches: Stretch[] = [];

  constructor(zone: IANAZone | string) {
    this.zoneName = typeof zone === 'string' ? zone : zone.name;
  }

  /** The zone's UTC offset, in milliseconds, at an instant. */
  offsetAt(epochMs: number): number {
    const list = this.stretches;
    let index = 0;
    while (index < list.length && list[index]!.from <= epochMs) index++;
    let left = list[index - 1];
    let right = list[index];
    if (left && epochMs <= left.to) return left.offset;
    if (left && right && left.offset === right.offset && right.from - left.to <= CONSTANT_OFFSET_SPAN_MS) {
      left.to = right.to;
      list.splice(index, 1);
      return left.offset;
    }
    // Near a known stretch and no other offset known in between: read a whole span beyond its
    // edge. If unchanged, the stretch grows by the full span at once, so a daily walk costs one
    // Intl call per two days. If changed, that reading is kept: the change lies in between.
    if (
      left &&
      epochMs - left.to <= CONSTANT_OFFSET_SPAN_MS &&
      !(right && right.from <= left.to + CONSTANT_OFFSET_SPAN_MS)
    ) {
      const probe = left.to + CONSTANT_OFFSET_SPAN_MS;
      const offset = this.read(probe);
      if (offset === left.offset) {
        left.to = probe;
        return offset;
      }
      right = { from: probe, to: probe, offset };
      this.remember(right);
    } else if (
      right &&
      right.from - epochMs <= CONSTANT_OFFSET_SPAN_MS &&
      !(left && left.to >= right.from - CONSTANT_OFFSET_SPAN_MS)
    ) {
      const probe = right.from - CONSTANT_OFFSET_SPAN_MS;
      const offset = this.read(probe);
      if (offset === right.offset) {
        right.from = probe;
        return offset;
      }
      left = { from: probe, to: probe, offset };
      this.remember(left);
    }
    const offset = this.read(epochMs);
    if (left && offset === left.offset && epochMs - left.to <= CONSTANT_OFFSET_SPAN_MS) {
      left.to = epochMs;
    } else if (right && offset === right.offset && right.from - epochMs <= CONSTANT_OFFSET_SPAN_MS) {
      right.from = epochMs;
    } else {
      this.remember({ from: epochMs, to: epochMs, offset });
    }
    return offset;
  }

  /** The wall-clock time an instant shows in this zone. */
  toWallClock(epochMs: number): WallMs {
    return epochMs + this.offsetAt(epochMs);
  }

  private remember(stretch: Stretch): void {
    const list = this.stretches;
    let index = 0;
    while (index < list.length && list[index]!.from < stretch.from) index++;
    list.splice(index, 0, stretch);
    while (list.length > REMEMBERED_STRETCHES) {
      // Drop whichever end of the list is farther from the stretch just learnt.
      const first = list[0]!;
      const last = list[list.length - 1]!;
      if (stretch.from - first.to > last.from - stretch.to) list.shift();
      else list.pop();
    }
  }

  private read(epochMs: number): number {
    return intlOffsetMs(this.zoneName, epochMs);
  }
}

/**
 * The wall-clock time (see {@link WallMs}) an instant shows in `zone`.
 *
 * @example
 * instantToWallClock(Date.UTC(2026, 2, 8, 7, 30), 'America/New_York') === Date.UTC(2026, 2, 8, 3, 30); // true
 */
export function instantToWallClock(epochMs: number, zone: IANAZone | string): WallMs {
  return new ZoneOffsets(zone).toWallClock(epochMs);
}
