import type { CalendarEvent } from '../../core/calendar/event.js';
import { overlapsWindow, parseInstanceId } from '../../core/calendar/event-times.js';
import { expandSeriesWithin, findOccurrence, type Series } from '../../core/calendar/series.js';
import type { CallWork } from '../../core/call-work.js';
import { DomainError } from '../../core/errors.js';
import type { ParsedResource } from './ical-mapping.js';

/**
 * What a parsed resource contributes to listings and lookups. Pure functions over
 * {@link ParsedResource}; the provider does the I/O.
 */

/**
 * The resource as a series, when its master recurs.
 *
 * @example
 * seriesOf(parseResource(ics, context))?.master.recurrence; // ['RRULE:FREQ=WEEKLY;COUNT=6']
 */
export function seriesOf(parsed: ParsedResource): Series | undefined {
  return parsed.master?.recurrence?.length
    ? { master: parsed.master, overrides: parsed.overrides }
    : undefined;
}

/**
 * The events of one resource that overlap [fromMs, toMs): a series' instances (or its master,
 * when `singleEvents` is false and some instance overlaps), a one-off event, or the overrides of
 * a resource that holds no master (an invitation to single occurrences). `complete` is false
 * when a series has more occurrences in the window than one listing expands.
 *
 * @example
 * eventsInWindow(parsed, Date.parse('2026-03-01T00:00:00Z'), Date.parse('2026-04-01T00:00:00Z'), true, 'UTC');
 */
export function eventsInWindow(
  parsed: ParsedResource,
  fromMs: number,
  toMs: number,
  singleEvents: boolean,
  zone?: string,
  work?: CallWork,
): { events: CalendarEvent[]; complete: boolean } {
  const series = seriesOf(parsed);
  if (series) {
    const { events: instances, complete } = expandSeriesWithin(series, fromMs, toMs, zone, {
      ...(work ? { work } : {}),
    });
    if (singleEvents) return { events: instances, complete };
    return { events: instances.length > 0 ? [series.master] : [], complete };
  }
  const events = parsed.master ? [parsed.master] : parsed.overrides;
  return { events: events.filter((event) => overlapsWindow(event, fromMs, toMs)), complete: true };
}

/**
 * The event `id` names inside a resource: master, occurrence (stored or generated) or override.
 * NOT_FOUND when the resource has no such event.
 *
 * @example
 * eventIn(parsed, 'standup_20260323T130000Z', 'America/New_York').start;
 * // { date_time: '2026-03-23T09:00:00-04:00', time_zone: 'America/New_York' }
 */
export function eventIn(parsed: ParsedResource, id: string, zone?: string): CalendarEvent {
  if (parsed.master?.id === id) return parsed.master;
  const series = seriesOf(parsed);
  if (series && parseInstanceId(id)) return findOccurrence(series, id, zone);
  const override = parsed.overrides.find((o) => o.id === id);
  if (override) return override;
  throw new DomainError(
    'NOT_FOUND',
    `No event "${id}" in this calendar: list_events shows the ids that exist.`,
    {
      event_id: id,
    },
  );
}

/**
 * ETags compare without quotes and the weak prefix: callers may echo either form back.
 *
 * @example
 * sameEtag('"abc"', 'W/"abc"'); // true
 */
export function sameEtag(a: string, b: string): boolean {
  const bare = (tag: string) =>
    tag
      .trim()
      .replace(/^W\//, '')
      .replace(/^"(.*)"$/, '$1');
  return bare(a) === bare(b);
}
