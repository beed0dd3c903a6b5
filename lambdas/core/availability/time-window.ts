import { DomainError } from '../errors.js';

export const MINUTE_MS = 60_000;

/**
 * Checks a query window [from, to) given as epoch milliseconds. Every availability function
 * takes one; an empty or reversed window is a caller's mistake, not an empty answer, so it
 * is reported the same way `find_free_time` reports it.
 *
 * @example
 * requireWindow(Date.parse('2026-03-16T09:00:00Z'), Date.parse('2026-03-16T17:00:00Z')); // ok
 * requireWindow(10, 10); // throws DomainError INVALID_INPUT
 */
export function requireWindow(from: number, to: number): void {
  if (!Number.isFinite(from) || !Number.isFinite(to)) {
    throw new DomainError('INVALID_INPUT', 'The window start and end must be valid instants.', {
      field: 'start',
    });
  }
  if (!(to > from)) {
    throw new DomainError('INVALID_INPUT', '"end" must be after "start".', { field: 'end' });
  }
}

/**
 * Whole minutes in a span of milliseconds, rounded down: a slot is never reported as longer
 * than it is.
 *
 * @example
 * wholeMinutes(90 * 60_000 + 59_999); // 90
 */
export function wholeMinutes(ms: number): number {
  return Math.floor(ms / MINUTE_MS);
}
