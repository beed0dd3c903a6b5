import { readFileSync } from 'node:fs';
import { ZoneOffsets } from '../../lambdas/core/time/recurrence/zone-offsets.js';

/**
 * Node's ICU and the system's tzdata (which Python's zoneinfo reads) are separate releases of the
 * tz database: a zone whose rules changed between them disagrees for reasons of data, not of
 * arithmetic. The cross-checks against zoneinfo tell the two apart with these helpers, by reading
 * ICU's data in the plainest way (which instants does ICU show as this wall time?) and comparing
 * that with zoneinfo's answer. Where the data agree, any other answer of ours is a failure.
 *
 * Seen: Cuba kept DST through November 2026 in tzdata 2026f but not in 2026c (Node 24.21's ICU),
 * so 00:00 on 1 November 2026 in Havana is one instant for zoneinfo and two for ICU.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Zones whose transitions are predictions and change in nearly every release (Morocco's Ramadan
 * suspensions of DST), and Moldova, whose 2026 rules changed between 2025b and 2026c: always drift.
 */
const PREDICTED_ZONES = new Set(['Africa/Casablanca', 'Africa/El_Aaiun', 'Europe/Chisinau']);

const offsetsByZone = new Map<string, ZoneOffsets>();

function offsetsOf(zone: string): ZoneOffsets {
  let offsets = offsetsByZone.get(zone);
  if (!offsets) {
    offsets = new ZoneOffsets(zone);
    offsetsByZone.set(zone, offsets);
  }
  return offsets;
}

/**
 * The instants ICU shows as `wall` (wall-clock milliseconds, as if UTC) in `zone`, ascending:
 * none in a gap, two in a repeat. Each candidate is the wall time minus an offset the zone has a
 * day either side, kept when ICU's offset at it gives the wall time back.
 */
export function icuReadings(zone: string, wall: number): number[] {
  const offsets = offsetsOf(zone);
  const candidates = new Set(
    [-DAY_MS, -HOUR_MS, 0, HOUR_MS, DAY_MS].map((d) => wall - offsets.offsetAt(wall + d)),
  );
  return [...candidates]
    .filter((instant) => offsets.offsetAt(instant) === wall - instant)
    .sort((a, b) => a - b);
}

/**
 * Drift when zoneinfo's readings of `wall` (the instants it shows as that wall time; empty for
 * a gap) are not ICU's. Two gaps are compared, not drift: the answer there is arithmetic.
 */
export function readingsDrift(zone: string, wall: number, zoneinfoReadings: readonly number[]): boolean {
  if (PREDICTED_ZONES.has(zone)) return true;
  const icu = icuReadings(zone, wall);
  const zoneinfo = [...new Set(zoneinfoReadings)].sort((a, b) => a - b);
  if (icu.length === 0 && zoneinfo.length === 0) return false;
  return icu.length !== zoneinfo.length || icu.some((instant, i) => instant !== zoneinfo[i]);
}

/**
 * Drift for a check that knows only zoneinfo's RFC 5545 instant of `wall` (fold=0): when ICU
 * shows the wall time at all and its earliest reading is another instant. A wall time in an ICU
 * gap is compared, not drift; so is any wall time whose earliest ICU reading is zoneinfo's.
 */
export function firstReadingDrift(zone: string, wall: number, zoneinfoInstant: number): boolean {
  if (PREDICTED_ZONES.has(zone)) return true;
  const [earliest] = icuReadings(zone, wall);
  return earliest !== undefined && earliest !== zoneinfoInstant;
}

/**
 * The mismatches that are not drift. The drift is reported on one line naming both tz releases
 * and the zones, so that it is seen, not silently passed.
 */
export function beyondTzDataDrift<T extends { zone: string }>(
  mismatches: T[],
  isDrift: (mismatch: T) => boolean,
): T[] {
  const drift = mismatches.filter(isDrift);
  if (drift.length > 0) {
    console.info(
      `tz data ${process.versions.tz} (ICU) vs ${systemTzRelease()} (the system's, read by zoneinfo): ` +
        `${drift.length} disagreements of data in ${[...new Set(drift.map((m) => m.zone))].join(', ')}`,
    );
  }
  return mismatches.filter((m) => !drift.includes(m));
}

/** The system tzdata's release, from tzdata.zi's first line where it has one. */
function systemTzRelease(): string {
  try {
    const head = readFileSync('/usr/share/zoneinfo/tzdata.zi', 'utf8').slice(0, 40);
    return /^# version (\S+)/.exec(head)?.[1] ?? 'a release not named';
  } catch {
    return 'a release not named';
  }
}
