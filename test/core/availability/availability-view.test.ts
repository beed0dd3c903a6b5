import { describe, expect, it } from 'vitest';
import { availabilityView } from '../../../lambdas/core/availability/availability-view.js';

const t = (clock: string) => Date.parse(`2026-03-16T${clock}:00Z`);
const span = (start: string, end: string) => ({ start: t(start), end: t(end) });
const WORK = [span('14:00', '15:00'), span('16:00', '16:20')];
const PERSONAL = [span('14:30', '15:30')];

describe('availability', () => {
  describe('availabilityView', () => {
    it('merges calendars and reports real source counts under full privacy', () => {
      const view = availabilityView([WORK, PERSONAL], t('09:00'), t('18:00'), {
        privacy: 'full',
        minFreeSlotMinutes: 60,
      });

      expect(view).toEqual({
        busy: [
          { ...span('14:00', '15:30'), source_count: 2 },
          { ...span('16:00', '16:20'), source_count: 1 },
        ],
        free: [
          { ...span('09:00', '14:00'), duration_minutes: 300 },
          { ...span('16:20', '18:00'), duration_minutes: 100 },
        ],
        calendars_merged: 2,
        privacy: 'full',
      });
    });

    it('leaves source_count out by default (opaque), with the same blocks', () => {
      const view = availabilityView([WORK, PERSONAL], t('09:00'), t('18:00'));

      expect(view.privacy).toBe('opaque');
      expect(view.busy).toEqual([span('14:00', '15:30'), span('16:00', '16:20')]);
      expect(view.free.map((s) => s.duration_minutes)).toEqual([300, 30, 100]);
    });

    it('counts calendars with no busy time as merged', () => {
      const view = availabilityView([[], [], PERSONAL], t('09:00'), t('18:00'), { privacy: 'full' });

      expect(view.calendars_merged).toBe(3);
      expect(view.busy).toEqual([{ ...span('14:30', '15:30'), source_count: 1 }]);
    });

    it('pads free slots by a buffer, including from an event ending before the window', () => {
      const view = availabilityView([[span('08:00', '09:00')], PERSONAL], t('09:00'), t('18:00'), {
        bufferMinutes: 30,
        minFreeSlotMinutes: 0,
      });

      expect(view.busy).toEqual([span('14:30', '15:30')]);
      expect(view.free).toEqual([
        { ...span('09:30', '14:00'), duration_minutes: 270 },
        { ...span('16:00', '18:00'), duration_minutes: 120 },
      ]);
    });
  });
});
