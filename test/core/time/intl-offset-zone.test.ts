import fc from 'fast-check';
import { DateTime, IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { IntlOffsetZone } from '../../../lambdas/core/time/intl-offset-zone.js';

describe('IntlOffsetZone', () => {
  it('reads the same offset as luxon’s IANAZone, in every zone, 1900–2100 (property)', () => {
    const zones = [...Intl.supportedValuesOf('timeZone'), 'UTC'];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2100, 0, 1) }),
        (name, ms) => {
          expect(IntlOffsetZone.of(name).offset(ms)).toBe(IANAZone.create(name).offset(ms));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.each([
    // Expected values from Python zoneinfo.
    ['Africa/Monrovia', Date.UTC(1970, 0, 1), -44.5],
    ['Asia/Kathmandu', Date.UTC(2026, 0, 1), 345],
    ['Australia/Lord_Howe', Date.UTC(2026, 0, 15), 660],
    ['Australia/Lord_Howe', Date.UTC(2026, 6, 15), 630],
    ['Pacific/Apia', Date.UTC(2011, 11, 30, 10), 840],
    ['America/New_York', Date.UTC(2026, 2, 8, 7), -240],
    ['America/New_York', Date.UTC(2026, 2, 8, 6, 59, 59), -300],
  ])('reads %s at %d as %d minutes', (name, ms, minutes) => {
    expect(IntlOffsetZone.of(name).offset(ms)).toBe(minutes);
  });

  it('answers NaN for an instant outside the date range, as luxon does, instead of throwing', () => {
    expect(IntlOffsetZone.of('Europe/Paris').offset(Number.NaN)).toBeNaN();
    expect(IntlOffsetZone.of('Europe/Paris').offset(9e15)).toBeNaN();
  });

  it('gives DateTimes equal to those in luxon’s own zone', () => {
    const ours = DateTime.fromISO('2026-11-01T01:30:00', { zone: IntlOffsetZone.of('America/New_York') });
    const luxons = DateTime.fromISO('2026-11-01T01:30:00', { zone: 'America/New_York' });

    expect(ours.toISO()).toBe(luxons.toISO());
    expect(ours.zoneName).toBe('America/New_York');
    expect(ours.equals(luxons)).toBe(true);
  });
});
