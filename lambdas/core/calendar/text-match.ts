import type { CalendarEvent } from './event.js';

/**
 * Free-text filter for `query`: every word must appear (case-insensitive) in the summary,
 * description, location or an attendee's email or name — the way Google's `q` behaves for the
 * common case, applied the same way to providers that cannot search server-side.
 */
export function matchesText(event: CalendarEvent, query: string): boolean {
  const haystack = [
    event.summary,
    event.description ?? '',
    event.location ?? '',
    ...event.attendees.flatMap((a) => [a.email, a.display_name ?? '']),
  ]
    .join('\n')
    .toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}
