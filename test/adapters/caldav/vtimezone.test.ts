import ICAL from 'ical.js';
import { DateTime, IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { buildVtimezone } from '../../../lambdas/adapters/caldav/vtimezone.js';

/** UTC instant ical.js gives a wall-clock time in the generated VTIMEZONE. */
function icalInstant(zone: ICAL.Timezone, wall: DateTime): number {
  const time = ICAL.Time.fromData(
    {
      year: wall.year,
      month: wall.month,
      day: wall.day,
      hour: wall.hour,
      minute: wall.minute,
      second: wall.second,
    },
    zone,
  );
  return time.toUnixTime() * 1000;
}

describe('buildVtimezone', () => {
  it('writes the US rules as yearly RRULEs (second Sunday of March, first Sunday of November)', () => {
    const text = buildVtimezone('America/New_York', 2026).toString().split('\r\n');

    expect(text).toEqual([
      'BEGIN:VTIMEZONE',
      'TZID:America/New_York',
      'BEGIN:DAYLIGHT',
      'DTSTART:20250309T020000',
      'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
      'TZOFFSETFROM:-0500',
      'TZOFFSETTO:-0400',
      'END:DAYLIGHT',
      'BEGIN:STANDARD',
      'DTSTART:20251102T020000',
      'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
      'TZOFFSETFROM:-0400',
      'TZOFFSETTO:-0500',
      'END:STANDARD',
      'END:VTIMEZONE',
    ]);
  });

  it('writes the EU rules as "last Sunday" RRULEs at 01:00 UTC', () => {
    const text = buildVtimezone('Europe/Paris', 2026).toString();

    expect(text).toContain('DTSTART:20250330T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU');
    expect(text).toContain('DTSTART:20251026T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU');
  });

  it('writes a zone without DST as one STANDARD observance', () => {
    const text = buildVtimezone('Asia/Kolkata', 2026).toString();

    expect(text).toContain(
      'BEGIN:STANDARD\r\nDTSTART:20250101T053000\r\nTZOFFSETFROM:+0530\r\nTZOFFSETTO:+0530',
    );
    expect(text).not.toContain('DAYLIGHT');
  });

  it('falls back to RDATE lists for rules that are not "nth weekday" (Chile: first Sunday on or after the 2nd)', () => {
    const text = buildVtimezone('America/Santiago', 2026).toString();

    expect(text).not.toContain('RRULE');
    expect(text).toContain('RDATE:20290408T000000');
  });

  it.each([
    'America/New_York',
    'Europe/London',
    'Australia/Sydney',
    'Australia/Lord_Howe',
    'America/Santiago',
    'Africa/Casablanca',
    'Pacific/Chatham',
    'Asia/Tokyo',
  ])('gives the same UTC instant as the IANA database for wall times in %s through 2036', (name) => {
    const zone = IANAZone.create(name);
    const vtimezone = new ICAL.Timezone(buildVtimezone(name, 2026));
    const mismatches: string[] = [];

    for (let at = Date.UTC(2026, 0, 1); at < Date.UTC(2037, 0, 1); at += 31 * 3_600_000 + 13 * 60_000) {
      // Skip the hours around a transition: wall times there are ambiguous or skipped.
      if (zone.offset(at - 7_200_000) !== zone.offset(at) || zone.offset(at + 3_600_000) !== zone.offset(at))
        continue;
      const wall = DateTime.fromMillis(at, { zone });
      if (icalInstant(vtimezone, wall) !== at) mismatches.push(wall.toISO()!);
    }

    expect(mismatches).toEqual([]);
  });
});
