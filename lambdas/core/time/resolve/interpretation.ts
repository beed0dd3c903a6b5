import type { DateTime } from '../luxon.js';

/**
 * A plain-English reading of an instant in its own zone, for the agent to echo back to a user:
 * "Tuesday, February 24, 2026 at 2:00 PM". Seconds appear only when not zero ("11:59:59 PM").
 * Always English (en-US), whatever the host locale.
 *
 * @example
 * describeInstant(DateTime.fromISO('2026-02-24T14:00:00', { zone: 'America/New_York' }));
 * // 'Tuesday, February 24, 2026 at 2:00 PM'
 */
export function describeInstant(instant: DateTime): string {
  const time = instant.second === 0 ? 'h:mm a' : 'h:mm:ss a';
  return instant.toFormat(`cccc, LLLL d, yyyy 'at' ${time}`, { locale: 'en-US' });
}
