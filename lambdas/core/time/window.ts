import { DomainError } from '../errors.js';
import { parseInstant, requireInstantInRange } from './instants.js';

const DAY_MS = 86_400_000;

/**
 * Checks a window of epoch milliseconds: both bounds within years 0001–9999 (a default end, such
 * as start + 30 days, may not be), end after start, and no longer than `maxDays` (which keeps
 * expansion and fan-out bounded). INVALID_INPUT or OUT_OF_RANGE says which bound to change.
 */
export function checkWindow(from: number, to: number, maxDays?: number): { from: number; to: number } {
  requireInstantInRange(from, 'start');
  requireInstantInRange(to, 'end');
  if (to <= from) throw new DomainError('INVALID_INPUT', '"end" must be after "start".', { field: 'end' });
  if (maxDays !== undefined && to - from > maxDays * DAY_MS) {
    throw new DomainError('INVALID_INPUT', `The window spans more than ${maxDays} days: narrow start/end.`, {
      field: 'end',
    });
  }
  return { from, to };
}

/**
 * A window given as two RFC 3339 instants, as the tools take it: each bound parsed (INVALID_DATETIME
 * naming the field), then checked with {@link checkWindow}.
 *
 * @example
 * parseWindow('2026-03-16T09:00:00Z', '2026-03-16T17:00:00Z', 93); // { from: …, to: … }
 */
export function parseWindow(start: string, end: string, maxDays?: number): { from: number; to: number } {
  return checkWindow(parseInstant(start, 'start').toMillis(), parseInstant(end, 'end').toMillis(), maxDays);
}
