import type { AccessStore } from '../access/access-store.js';
import type { Clock } from '../ports/index.js';
import type { CalendarRegistry } from './calendar-registry.js';

/**
 * How old a calendar grant without its calendar must be before it counts as left behind: far
 * longer than a create_calendar call between its two writes, so a creation in flight — whose
 * record a listing may not show yet — keeps its grant.
 */
export const ORPHAN_GRANT_GRACE_MS = 10 * 60_000;

/**
 * Removes a key's calendar grants whose calendar does not exist, once they are older than
 * {@link ORPHAN_GRANT_GRACE_MS}. create_calendar writes the grant before the calendar record (so a
 * crash never leaves a calendar its creator cannot reach); a crash between the two leaves a grant
 * on nothing, which grants nothing but would otherwise stay in `meridian grants list` for ever.
 * Called by readers that found grants no listed calendar matches; a calendar is confirmed gone
 * with a consistent read of its record, not from the (eventually consistent) listing.
 *
 * @example
 * await removeOrphanCalendarGrants({ access, registry, clock }, keyId);
 */
export async function removeOrphanCalendarGrants(
  deps: { access: AccessStore; registry: CalendarRegistry; clock: Clock },
  keyId: string,
): Promise<string[]> {
  const grantedBefore = new Date(deps.clock.now().getTime() - ORPHAN_GRANT_GRACE_MS);
  return deps.access.removeOrphanGrants(
    keyId,
    'calendar',
    grantedBefore,
    async (calendarId) => (await deps.registry.findCalendar(calendarId)) === undefined,
  );
}
