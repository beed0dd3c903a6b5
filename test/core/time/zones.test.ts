import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../lambdas/core/errors.js';
import { requireZone, suggestZones } from '../../../lambdas/core/time/zones.js';

describe('zones', () => {
  describe('requireZone', () => {
    it('accepts canonical and legacy IANA names', () => {
      expect(requireZone('Europe/London').name).toBe('Europe/London');
      expect(requireZone('US/Eastern').name).toBe('US/Eastern');
      expect(requireZone('UTC').name).toBe('UTC');
    });

    // The name as IANA spells it today, whatever case it came in; a name already so spelt is kept
    // as is (ICU resolves it to itself), a renamed or linked one keeps the spelling it was given.
    it.each([
      ['europe/paris', 'Europe/Paris'],
      ['AMERICA/NEW_YORK', 'America/New_York'],
      ['europe/kyiv', 'Europe/Kyiv'],
      ['Europe/Kyiv', 'Europe/Kyiv'],
      ['Asia/Kolkata', 'Asia/Kolkata'],
      ['asia/kolkata', 'Asia/Kolkata'],
      ['Asia/Calcutta', 'Asia/Calcutta'],
      ['Etc/UTC', 'Etc/UTC'],
      ['utc', 'UTC'],
      ['Etc/GMT+5', 'Etc/GMT+5'],
    ])('reports %j as %j', (input, name) => {
      expect(requireZone(input).name).toBe(name);
    });

    it.each(['', '   ', 'Mars/Olympus', '+05:00', 'EST5EDT6'])('rejects %j with INVALID_TIMEZONE', (name) => {
      expect(() => requireZone(name)).toThrowError(DomainError);
    });

    it('names the field in the message', () => {
      expect(() => requireZone('Nowhere/Town', 'target_timezone')).toThrowError(/target_timezone/);
    });
  });

  describe('suggestZones', () => {
    it.each([
      ['America/New_Yrok', 'America/New_York'],
      ['Europe/Londn', 'Europe/London'],
      ['Kathmandu', 'Asia/Kathmandu'],
      ['australia/sydny', 'Australia/Sydney'],
    ])('suggests %s → %s first', (typo, expected) => {
      expect(suggestZones(typo)[0]).toBe(expected);
    });
  });
});
