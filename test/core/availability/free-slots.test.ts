import { describe, expect, it } from 'vitest';
import { freeSlots } from '../../../lambdas/core/availability/free-slots.js';
import { isDomainError } from '../../../lambdas/core/errors.js';

const at = (text: string) => Date.parse(text);
const t = (clock: string, day = '16') => at(`2026-03-${day}T${clock}:00Z`);
const span = (start: string, end: string) => ({ start: t(start), end: t(end) });
const slot = (start: string, end: string, duration_minutes: number) => ({
  ...span(start, end),
  duration_minutes,
});

describe('availability', () => {
  describe('freeSlots', () => {
    it('returns the gaps around busy intervals, whatever their order and overlap', () => {
      const busy = [span('13:00', '14:00'), span('10:00', '11:00'), span('10:30', '12:00')];

      expect(freeSlots(busy, t('09:00'), t('17:00'))).toEqual([
        slot('09:00', '10:00', 60),
        slot('12:00', '13:00', 60),
        slot('14:00', '17:00', 180),
      ]);
    });

    it('drops slots shorter than the minimum duration (30 minutes by default)', () => {
      const busy = [span('09:20', '10:00'), span('10:29', '11:00'), span('11:30', '17:00')];

      expect(freeSlots(busy, t('09:00'), t('17:00'))).toEqual([slot('11:00', '11:30', 30)]);
      expect(freeSlots(busy, t('09:00'), t('17:00'), { minDurationMinutes: 0 })).toEqual([
        slot('09:00', '09:20', 20),
        slot('10:00', '10:29', 29),
        slot('11:00', '11:30', 30),
      ]);
    });

    it('leaves no slot between touching events', () => {
      expect(
        freeSlots([span('10:00', '11:00'), span('11:00', '12:00')], t('10:00'), t('12:00'), {
          minDurationMinutes: 0,
        }),
      ).toEqual([]);
    });

    it('lets a zero-length event block nothing, even with a buffer', () => {
      expect(freeSlots([span('10:00', '10:00')], t('09:00'), t('11:00'), { bufferMinutes: 15 })).toEqual([
        slot('09:00', '11:00', 120),
      ]);
    });

    it('keeps the buffer before an event apart from the buffer after it; each overrides the shorthand', () => {
      const busy = [span('10:00', '11:00')];

      expect(
        freeSlots(busy, t('09:00'), t('12:00'), { bufferBeforeMinutes: 15, minDurationMinutes: 0 }),
      ).toEqual([slot('09:00', '09:45', 45), slot('11:00', '12:00', 60)]);
      expect(
        freeSlots(busy, t('09:00'), t('12:00'), {
          bufferMinutes: 10,
          bufferAfterMinutes: 0,
          minDurationMinutes: 0,
        }),
      ).toEqual([slot('09:00', '09:50', 50), slot('11:00', '12:00', 60)]);
    });

    it('merges two events 20 minutes apart into one busy stretch with a 15-minute buffer', () => {
      const busy = [span('10:00', '11:00'), span('11:20', '12:00')];

      expect(freeSlots(busy, t('09:00'), t('13:00'), { bufferMinutes: 15, minDurationMinutes: 0 })).toEqual([
        slot('09:00', '09:45', 45),
        slot('12:15', '13:00', 45),
      ]);
      expect(freeSlots(busy, t('09:00'), t('13:00'), { bufferMinutes: 5, minDurationMinutes: 0 })).toEqual([
        slot('09:00', '09:55', 55),
        slot('11:05', '11:15', 10),
        slot('12:05', '13:00', 55),
      ]);
    });

    it('lets an event just outside the window pad into it with its buffer', () => {
      expect(freeSlots([span('08:00', '08:50')], t('09:00'), t('10:00'), { bufferMinutes: 15 })).toEqual([
        slot('09:05', '10:00', 55),
      ]);
    });

    it('keeps to working hours in the zone, across days', () => {
      const slots = freeSlots(
        [span('10:00', '11:00')],
        at('2026-03-16T00:00:00Z'),
        at('2026-03-18T00:00:00Z'),
        {
          workingHours: { start: '09:00', end: '17:00', zone: 'Asia/Kathmandu' },
        },
      );

      // Kathmandu 09:00–17:00 is 03:15–11:15 UTC; 11:00–11:15 on the 16th is under 30 minutes.
      expect(slots).toEqual([
        slot('03:15', '10:00', 405),
        { start: t('03:15', '17'), end: t('11:15', '17'), duration_minutes: 480 },
      ]);
    });

    it('gives a working day on the New York spring-forward Sunday 23 hours', () => {
      const slots = freeSlots([], at('2026-03-07T00:00:00Z'), at('2026-03-10T00:00:00Z'), {
        workingHours: { start: '00:00', end: '24:00', zone: 'America/New_York', days: [7] },
      });

      expect(slots).toEqual([
        { start: at('2026-03-08T05:00:00Z'), end: at('2026-03-09T04:00:00Z'), duration_minutes: 23 * 60 },
      ]);
    });

    it('rejects negative or non-numeric minutes', () => {
      const error = (() => {
        try {
          freeSlots([], t('09:00'), t('10:00'), { bufferMinutes: -5 });
        } catch (e) {
          return e;
        }
      })();

      expect(isDomainError(error, 'INVALID_INPUT')).toBe(true);
      expect(() => freeSlots([], t('09:00'), t('10:00'), { minDurationMinutes: Number.NaN })).toThrow(
        /min_duration_minutes/,
      );
    });
  });
});
