import type { CalendarEvent, EventDraft } from './event.js';
import { applyPatch } from './event-times.js';

/**
 * A new event from what a caller asked for, with the defaults every provider shares (confirmed,
 * busy, default visibility, no attendees) and the checks applyPatch makes (start before end,
 * both timed or both all-day). The provider chooses the id and the version it starts at.
 *
 * @example
 * eventFromDraft(draft, { id: 'abc', calendar_id: 'native/x', etag: '"1"', created: now });
 */
export function eventFromDraft(
  draft: EventDraft,
  identity: { id: string; calendar_id: string; etag: string; created?: string },
): CalendarEvent {
  const { created, ...base } = identity;
  return applyPatch(
    {
      ...base,
      summary: draft.summary,
      start: draft.start,
      end: draft.end,
      status: 'confirmed',
      transparency: 'opaque',
      visibility: 'default',
      attendees: [],
      ...(created ? { created, updated: created } : {}),
    },
    draft,
  );
}
