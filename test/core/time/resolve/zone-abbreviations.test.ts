import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ZONE_ABBREVIATIONS } from '../../../../lambdas/core/time/resolve/zone-abbreviations.js';
import { needs, PYTHON, PYTHON_DATEUTIL } from '../../../support/system-parts.js';

// Every alphabetic abbreviation tzdata shows in 2026 (the 1st and 15th of each month, every zone),
// with its offsets in minutes, and for each of our meanings whether its `clocks` zone shows it so.
const TZDATA = `
import json, sys
from datetime import datetime, timezone
from zoneinfo import ZoneInfo, available_timezones
moments = [datetime(2026, m, d, 12, tzinfo=timezone.utc) for m in range(1, 13) for d in (1, 15)]
seen = {}
for name in available_timezones():
    for moment in moments:
        local = moment.astimezone(ZoneInfo(name))
        if local.tzname().isalpha():
            seen.setdefault(local.tzname().upper(), set()).add(int(local.utcoffset().total_seconds() // 60))
shown = []
for abbreviation, offset, clocks in json.load(sys.stdin):
    shown.append(any(m.astimezone(ZoneInfo(clocks)).tzname().upper() == abbreviation
                     and int(m.astimezone(ZoneInfo(clocks)).utcoffset().total_seconds() // 60) == offset for m in moments))
print(json.dumps({"seen": {k: sorted(v) for k, v in seen.items()}, "shown": shown}))
`;

// Legacy zones named after an abbreviation ("MET"), kept in tzdata for old systems only.
const LEGACY = new Set(['MET', 'MEST']);

describe('the zone abbreviations resolve_datetime reads', () => {
  const meanings = Object.entries(ZONE_ABBREVIATIONS).flatMap(([abbreviation, list]) =>
    list.map((meaning) => [abbreviation, meaning.offset, meaning.clocks] as const),
  );
  const tzdata = () =>
    JSON.parse(execFileSync(PYTHON, ['-c', TZDATA], { input: JSON.stringify(meanings) }).toString()) as {
      seen: Record<string, number[]>;
      shown: boolean[];
    };

  it('are every abbreviation tzdata uses, with every offset it stands for', needs(PYTHON_DATEUTIL), () => {
    const { seen, shown } = tzdata();
    const ours = Object.fromEntries(
      Object.entries(ZONE_ABBREVIATIONS).map(([abbreviation, list]) => [
        abbreviation,
        list.map((meaning) => meaning.offset).sort((a, b) => a - b),
      ]),
    );
    const expected = Object.fromEntries(
      Object.entries(seen).filter(([abbreviation]) => !LEGACY.has(abbreviation)),
    );
    expect(ours).toEqual(expected);
    // …and each meaning's zone shows the abbreviation at that offset.
    expect(meanings.filter((_, i) => !shown[i])).toEqual([]);
  });
});
