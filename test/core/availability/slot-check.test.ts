import { describe, expect, it } from 'vitest';
import { isSlotFree } from '../../../lambdas/core/availability/slot-check.js';
import { DomainError } from '../../../lambdas/core/errors.js';

const t = (clock: string) => Date.parse(`2026-03-16T${clock}:00Z`);
const span = (start: string, end: string) => ({ start: t(start), end: t(end) });
const SLOT = span('15:00', '15:30');

describe('availability', () => {
  describe('isSlotFree', () => {
    it('is available when events only touch the slot', () => {
      expect(isSlotFree([span('14:00', '15:00'), span('15:30', '16:00')], [], SLOT)).toEqual({
        available: true,
        conflicts: [],
      });
    });

    it('is unavailable when an event covers any part of the slot, and names it', () => {
      const event = { ...span('15:29', '16:00'), id: 'standup' };

      expect(isSlotFree([event], [], SLOT)).toEqual({
        available: false,
        conflicts: [{ kind: 'busy', interval: event }],
      });
    });

    it('is unavailable when an active booking hold overlaps the slot', () => {
      const hold = { ...span('14:45', '15:15'), booking_id: 'b1' };

      expect(isSlotFree([], [hold], SLOT)).toEqual({
        available: false,
        conflicts: [{ kind: 'hold', interval: hold }],
      });
    });

    it('lists every conflict in start order, a slot-covering event included', () => {
      const around = span('14:00', '17:00');
      const hold = span('15:10', '15:20');
      const result = isSlotFree([span('15:10', '15:25'), around], [hold], SLOT);

      expect(result.conflicts).toEqual([
        { kind: 'busy', interval: around },
        { kind: 'busy', interval: span('15:10', '15:25') },
        { kind: 'hold', interval: hold },
      ]);
    });

    it('ignores a zero-length event inside the slot', () => {
      expect(isSlotFree([span('15:10', '15:10')], [], SLOT).available).toBe(true);
    });

    it('rejects an empty slot', () => {
      expect(() => isSlotFree([], [], span('15:00', '15:00'))).toThrow(DomainError);
    });
  });
});
