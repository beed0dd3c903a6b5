import { parseInstant } from './instants.js';

export interface ComputedDuration {
  total_seconds: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  human_readable: string;
  /** "forward" when end is at or after start, "backward" when it is before. */
  direction: 'forward' | 'backward';
}

function plural(value: number, unit: string): string {
  return `${value} ${unit}${value === 1 ? '' : 's'}`;
}

/**
 * Exact elapsed time between two instants, broken into days (of 24 h), hours, minutes and
 * seconds. A negative span keeps its sign in `total_seconds` and says so in `direction`.
 *
 * @example
 * computeDuration({ start: '2026-03-16T13:00:00Z', end: '2026-03-16T21:30:00Z' }).human_readable;
 * // '8 hours, 30 minutes'
 */
export function computeDuration(input: { start: string; end: string }): ComputedDuration {
  const start = parseInstant(input.start, 'start');
  const end = parseInstant(input.end, 'end');
  const totalMs = end.toMillis() - start.toMillis();
  const absSeconds = Math.abs(totalMs) / 1000;
  const days = Math.floor(absSeconds / 86_400);
  const hours = Math.floor((absSeconds % 86_400) / 3_600);
  const minutes = Math.floor((absSeconds % 3_600) / 60);
  const seconds = Math.round((absSeconds % 60) * 1000) / 1000;
  const parts = [
    days > 0 ? plural(days, 'day') : '',
    hours > 0 ? plural(hours, 'hour') : '',
    minutes > 0 ? plural(minutes, 'minute') : '',
    seconds > 0 ? plural(seconds, 'second') : '',
  ].filter(Boolean);
  const magnitude = parts.length > 0 ? parts.join(', ') : '0 seconds';
  return {
    total_seconds: totalMs / 1000,
    days,
    hours,
    minutes,
    seconds,
    human_readable: totalMs < 0 ? `${magnitude} (end is before start)` : magnitude,
    direction: totalMs < 0 ? 'backward' : 'forward',
  };
}
