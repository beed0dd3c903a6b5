import { describe, expect, it } from 'vitest';
import { mergeWithSources } from '../../../lambdas/core/availability/merge-with-sources.js';
import { sortedEndpoints } from '../../../lambdas/core/availability/sorted-endpoints.js';
import { DomainError } from '../../../lambdas/core/errors.js';

const at = (text: string) => Date.parse(text);
const span = (start: string, end: string) => ({
  start: at(`2026-03-16T${start}:00Z`),
  end: at(`2026-03-16T${end}:00Z`),
});
const block = (start: string, end: string, source_count: number) => ({ ...span(start, end), source_count });
const DAY = span('00:00', '23:59');

describe('availability', () => {
  describe('mergeWithSources', () => {
    it('joins touching intervals from two calendars into one block counting both', () => {
      const blocks = mergeWithSources(
        [[span('09:00', '10:00')], [span('10:00', '11:00')]],
        DAY.start,
        DAY.end,
      );

      expect(blocks).toEqual([block('09:00', '11:00', 2)]);
    });

    it('counts a calendar once however many of its intervals a block holds', () => {
      const blocks = mergeWithSources(
        [[span('09:00', '12:00'), span('09:30', '10:00'), span('10:30', '11:00')], [span('11:30', '12:30')]],
        DAY.start,
        DAY.end,
      );

      expect(blocks).toEqual([block('09:00', '12:30', 2)]);
    });

    it('keeps a nested interval inside its block and counts its calendar', () => {
      const blocks = mergeWithSources(
        [[span('09:00', '17:00')], [span('12:00', '13:00')], []],
        DAY.start,
        DAY.end,
      );

      expect(blocks).toEqual([block('09:00', '17:00', 2)]);
    });

    it('ignores zero-length and reversed intervals: they occupy no time', () => {
      const blocks = mergeWithSources(
        [[span('09:00', '09:00'), span('11:00', '10:00')], [span('13:00', '14:00')]],
        DAY.start,
        DAY.end,
      );

      expect(blocks).toEqual([block('13:00', '14:00', 1)]);
    });

    it('does not let a zero-length interval at a block edge join or bridge blocks', () => {
      const blocks = mergeWithSources(
        [[span('09:00', '10:00'), span('11:00', '12:00')], [span('10:00', '10:00')]],
        DAY.start,
        DAY.end,
      );

      expect(blocks).toEqual([block('09:00', '10:00', 1), block('11:00', '12:00', 1)]);
    });

    it('clips to the window and drops what lies outside it', () => {
      const blocks = mergeWithSources(
        [
          [span('06:00', '10:00'), span('17:00', '18:00')],
          [span('15:00', '20:00')],
          [span('05:00', '08:00')],
        ],
        at('2026-03-16T08:00:00Z'),
        at('2026-03-16T16:00:00Z'),
      );

      expect(blocks).toEqual([block('08:00', '10:00', 1), block('15:00', '16:00', 1)]);
    });

    it('ignores an interval with a missing (NaN) bound rather than stretching it to the window', () => {
      const blocks = mergeWithSources(
        [[{ start: Number.NaN, end: Number.NaN }, span('10:00', '11:00')]],
        DAY.start,
        DAY.end,
      );

      expect(blocks).toEqual([block('10:00', '11:00', 1)]);
    });

    it('separates blocks with a one-millisecond gap', () => {
      const a = span('09:00', '10:00');
      const blocks = mergeWithSources([[a], [{ start: a.end + 1, end: a.end + 60_000 }]], DAY.start, DAY.end);

      expect(blocks).toHaveLength(2);
      expect(blocks[1]).toEqual({ start: a.end + 1, end: a.end + 60_000, source_count: 1 });
    });

    it('gives the same blocks for fractional milliseconds, sorted by comparison', () => {
      const blocks = mergeWithSources([[{ start: 0.5, end: 10.25 }], [{ start: 10.25, end: 20 }]], 0, 100);

      expect(blocks).toEqual([{ start: 0.5, end: 20, source_count: 2 }]);
    });

    it('rejects a window whose end is not after its start', () => {
      expect(() => mergeWithSources([], DAY.start, DAY.start)).toThrow(DomainError);
      expect(() => mergeWithSources([], Number.NaN, DAY.end)).toThrow(/valid instants/);
    });
  });

  describe('sortedEndpoints', () => {
    const lists = [[{ start: 5, end: 20 }], [{ start: 0, end: 10 }], [{ start: 10, end: 12 }]];

    it('orders endpoints by time with starts before ends, packed or compared', () => {
      for (const strategy of ['packed', 'compare'] as const) {
        const { times, tags, count } = sortedEndpoints(lists, 0, 100, strategy);

        expect(count).toBe(6);
        expect([...times.subarray(0, count)]).toEqual([0, 5, 10, 10, 12, 20]);
        expect([...tags.subarray(0, count)]).toEqual([1, 0, 2, ~1, ~2, ~0]);
      }
    });

    it('refuses to pack when the keys would not be exact', () => {
      expect(() => sortedEndpoints([[{ start: 0, end: 2 ** 52 }], []], 0, 2 ** 52, 'packed')).toThrow(
        RangeError,
      );
      expect(sortedEndpoints([[{ start: 0, end: 2 ** 52 }], []], 0, 2 ** 52).count).toBe(2);
    });
  });
});
