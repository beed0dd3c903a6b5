import { createHash } from 'node:crypto';
import type { CalendarEvent } from '../../core/calendar/event.js';
import { canonicalJson } from '../../core/canonical-json.js';
import type { ParsedResource } from './ical-mapping.js';

/**
 * Per-occurrence etags for a CalDAV series. The server keeps one ETag per resource, and a series
 * is one resource: editing one occurrence changes it for every other. So the events of a
 * recurring resource get a tag of their own content instead — the master's for the master and
 * every occurrence not edited on its own, the master's and the override's for an edited one —
 * and `if_match` is checked against that tag, while the write itself is still conditioned on the
 * resource's ETag (a concurrent change anywhere in the series is a lost race, not an overwrite).
 * The stamps a write renews on every component (DTSTAMP, LAST-MODIFIED) are left out.
 *
 * @example
 * withOccurrenceEtags(parseResource(ics, context)).overrides[0]?.etag; // '"9c1e…"'
 */
export function withOccurrenceEtags(parsed: ParsedResource): ParsedResource {
  const { master } = parsed;
  if (!master?.recurrence?.length) return parsed;
  const masterTag = contentTag([content(master)]);
  return {
    ...parsed,
    master: { ...master, etag: masterTag },
    overrides: parsed.overrides.map((o) => ({ ...o, etag: contentTag([content(master), content(o)]) })),
  };
}

function content(event: CalendarEvent): Omit<CalendarEvent, 'etag' | 'updated' | 'created'> {
  const { etag: _etag, updated: _updated, created: _created, ...rest } = event;
  return rest;
}

/** A tag of plain event data (the JSON round trip drops the `undefined` fields canonical JSON refuses). */
function contentTag(parts: unknown[]): string {
  return `"${createHash('sha256')
    .update(canonicalJson(JSON.parse(JSON.stringify(parts))))
    .digest('hex')
    .slice(0, 32)}"`;
}
