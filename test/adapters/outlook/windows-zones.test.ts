import windowsZonesJson from 'cldr-core/supplemental/windowsZones.json' with { type: 'json' };
import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  ianaToWindowsZone,
  mappedIanaZones,
  WINDOWS_ZONES_CLDR_VERSION,
  windowsZoneNames,
  windowsZoneToIana,
  zoneFromGraph,
} from '../../../lambdas/adapters/outlook/windows-zones.js';
import { isDomainError } from '../../../lambdas/core/errors.js';

// CLDR's table read here on its own, so the module is checked against the data, not itself.
const entries = windowsZonesJson.supplemental.windowsZones.mapTimezones.map((entry) => entry.mapZone);
const golden = entries.filter((entry) => entry._territory === '001');
const ianaToCldrWindows = entries.flatMap((entry) =>
  entry._type
    .split(' ')
    .filter((name) => name.length > 0)
    .map((iana) => [iana, entry._other] as const),
);

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isDomainError(error) ? error.code : `not a DomainError: ${String(error)}`;
  }
  return undefined;
}

describe('windows-zones (CLDR windowsZones via cldr-core)', () => {
  it(`round-trips every Windows zone of CLDR ${WINDOWS_ZONES_CLDR_VERSION} through its IANA zone`, () => {
    const failures = golden
      .map((entry) => ({ windows: entry._other, iana: windowsZoneToIana(entry._other) }))
      .filter(({ windows, iana }) => !IANAZone.isValidZone(iana) || ianaToWindowsZone(iana) !== windows);
    expect(failures).toEqual([]);
    expect(windowsZoneNames()).toEqual(golden.map((entry) => entry._other).sort());
    console.info(`windows zones round-tripped: ${golden.length}`);
  });

  it('maps every IANA zone CLDR names to the Windows zone CLDR gives it', () => {
    const failures = ianaToCldrWindows.filter(([iana, windows]) => ianaToWindowsZone(iana) !== windows);
    expect(failures).toEqual([]);
    expect(mappedIanaZones()).toEqual([...new Set(ianaToCldrWindows.map(([iana]) => iana))].sort());
    console.info(`IANA zones CLDR maps: ${mappedIanaZones().length}, all to their Windows zone`);
  });

  it("answers with today's IANA names and accepts aliases", () => {
    expect(windowsZoneToIana('FLE Standard Time')).toBe('Europe/Kyiv');
    expect(windowsZoneToIana('India Standard Time')).toBe('Asia/Kolkata');
    expect(windowsZoneToIana('pacific standard time')).toBe('America/Los_Angeles');
    expect(ianaToWindowsZone('Europe/Kyiv')).toBe('FLE Standard Time');
    expect(ianaToWindowsZone('US/Eastern')).toBe('Eastern Standard Time');
    expect(ianaToWindowsZone('Etc/UTC')).toBe('UTC');
  });

  it('covers every zone the runtime knows but Antarctica/Troll', () => {
    const unmapped = Intl.supportedValuesOf('timeZone').filter((zone) =>
      codeOf(() => ianaToWindowsZone(zone)),
    );
    expect(unmapped).toEqual(['Antarctica/Troll']);
    console.info(
      `runtime zones with a Windows zone: ${Intl.supportedValuesOf('timeZone').length - 1} of ${Intl.supportedValuesOf('timeZone').length}`,
    );
  });

  it('refuses an unknown zone either way with INVALID_TIMEZONE saying what to give', () => {
    expect(codeOf(() => windowsZoneToIana('Mars Standard Time'))).toBe('INVALID_TIMEZONE');
    expect(codeOf(() => ianaToWindowsZone('Mars/Olympus'))).toBe('INVALID_TIMEZONE');
    expect(codeOf(() => ianaToWindowsZone('Antarctica/Troll'))).toBe('INVALID_TIMEZONE');
    expect(codeOf(() => zoneFromGraph('Customized Time Zone'))).toBe('INVALID_TIMEZONE');
    expect(() => windowsZoneToIana('Mars Standard Time')).toThrow(
      /not a Windows time zone.*give an IANA zone/,
    );
  });

  it('reads the zone names Graph writes: Windows, IANA and tzone://Microsoft/Utc', () => {
    expect(zoneFromGraph('W. Europe Standard Time')).toBe('Europe/Berlin');
    expect(zoneFromGraph('Asia/Tokyo')).toBe('Asia/Tokyo');
    expect(zoneFromGraph('tzone://Microsoft/Utc')).toBe('UTC');
    expect(zoneFromGraph('UTC')).toBe('UTC');
  });
});
