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
