import * as z from 'zod';
import type { StoredItem } from '../../ports/index.js';
import { GSI1PK, NATIVE_INDEX_SUFFIX, PK_PREFIX, SK } from '../../storage/key-prefixes.js';
import { clampedIso } from '../../time/instants.js';
import { CalendarEvent } from '../event.js';
import { eventTimeMs } from '../event-times.js';
import type { Series } from '../series.js';

/**
 * How native calendars lie in the table (docs/data-model.md):
 *   one-off event   pk NCAL#<cal>  sk EVT#<id>   gsi1: NCAL#<cal>#START / <start ISO>#<id>   (≤ 1 day long)
 *                                                gsi1: NCAL#<cal>#LONG  / <start ISO>#<id>   (longer)
 *   series          pk NCAL#<cal>  sk SER#<id>   master and edited occurrences in one item, so a
 *                                                scoped edit is one conditional write
 * `version` counts writes and is the etag; every write is conditional on the version read.
 * Inside a series item, `revisions` gives each occurrence its own etag (see {@link itemToSeries}).
 */
export const LONG_EVENT_MS = 86_400_000;

const StoredEvent = CalendarEvent.omit({ etag: true });
const EventItem = z.object({ pk: z.string(), sk: z.string(), version: z.number().int(), event: StoredEvent });
/**
 * A series item written ahead of the write that commits it (see native-calendar-provider.ts):
 * a `promotion` commits when the one-off event of the same id is deleted, a `split` when the
 * series `of` names it in `split_into`. Readers skip it until then; `since` (epoch ms) tells a
 * crash's leftover from a write in flight.
 */
export const Pending = z.union([
  z.object({ kind: z.literal('promotion'), since: z.number() }),
  z.object({ kind: z.literal('split'), of: z.string(), since: z.number() }),
]);
export type Pending = z.infer<typeof Pending>;

const SeriesItem = z.object({
  pk: z.string(),
  sk: z.string(),
  version: z.number().int(),
  series: z.object({ master: StoredEvent, overrides: z.array(StoredEvent) }),
  /**
   * The version of the last change to the series as a whole (`series`), and of each occurrence
   * edited on its own since (`occurrences`, by instance id). Absent on items written before
   * occurrences had etags of their own: every occurrence then has the item's version.
   */
  revisions: z
    .object({ series: z.number().int(), occurrences: z.record(z.string(), z.number().int()) })
    .optional(),
  pending: Pending.optional(),
  /** Set by the write that splits this series: the new series it committed. */
  split_into: z.string().optional(),
});

export const partitionOf = (nativeId: string) => `${PK_PREFIX.nativeCalendar}${nativeId}`;
export const startIndexOf = (nativeId: string) =>
  `${GSI1PK.nativeCalendarPrefix}${nativeId}${NATIVE_INDEX_SUFFIX.byStart}`;
export const longIndexOf = (nativeId: string) =>
  `${GSI1PK.nativeCalendarPrefix}${nativeId}${NATIVE_INDEX_SUFFIX.long}`;
export const eventSk = (id: string) => `${SK.nativeCalendar.eventPrefix}${id}`;
export const seriesSk = (id: string) => `${SK.nativeCalendar.seriesPrefix}${id}`;

/** Sortable UTC text (fixed width, milliseconds) for sort keys; padded bounds stay in years 0001–9999. */
export function sortableUtc(ms: number): string {
  return clampedIso(ms);
}

export const etagOf = (version: number) => `"${version}"`;

/** The version an etag of ours names, never above `ceiling` (the item's own version). */
function versionIn(etag: string, ceiling: number): number {
  const version = Number(/^"(\d+)"$/.exec(etag)?.[1] ?? Number.NaN);
  return Number.isInteger(version) && version <= ceiling ? version : ceiling;
}

/**
 * The series with every etag set to `version`: what a change to the series as a whole does
 * (an edit of all occurrences, a split, an occurrence deleted from the rule).
 */
export function stampSeries(series: Series, version: number): Series {
  const etag = etagOf(version);
  return { master: { ...series.master, etag }, overrides: series.overrides.map((o) => ({ ...o, etag })) };
}

/** The series with only the occurrence `id` at `version`: one occurrence edited on its own. */
export function stampOccurrence(series: Series, id: string, version: number): Series {
  return {
    master: series.master,
    overrides: series.overrides.map((o) => (o.id === id ? { ...o, etag: etagOf(version) } : o)),
  };
}

function withoutEtag<T extends { etag?: string }>(value: T): Omit<T, 'etag'> {
  const { etag: _etag, ...rest } = value;
  return rest;
}

export function eventToItem(nativeId: string, event: CalendarEvent, version: number): StoredItem {
  const startMs = eventTimeMs(event.start);
  const long = eventTimeMs(event.end) - startMs > LONG_EVENT_MS;
  return {
    pk: partitionOf(nativeId),
    sk: eventSk(event.id),
    gsi1pk: long ? longIndexOf(nativeId) : startIndexOf(nativeId),
    gsi1sk: `${sortableUtc(startMs)}#${event.id}`,
    version,
    event: withoutEtag(event),
  };
}

export function itemToEvent(item: StoredItem): { event: CalendarEvent; version: number } {
  const parsed = EventItem.parse(item);
  return { event: { ...parsed.event, etag: etagOf(parsed.version) }, version: parsed.version };
}

export interface SeriesMarks {
  pending?: Pending;
  split_into?: string;
}

export function seriesToItem(
  nativeId: string,
  series: Series,
  version: number,
  marks: SeriesMarks = {},
): StoredItem {
  return {
    pk: partitionOf(nativeId),
    sk: seriesSk(series.master.id),
    version,
    series: { master: withoutEtag(series.master), overrides: series.overrides.map(withoutEtag) },
    revisions: revisionsOf(series, version),
    ...marks,
  };
}

/** What the series' etags say of its revisions, kept in the item (the etags themselves are not). */
function revisionsOf(series: Series, version: number) {
  const whole = versionIn(series.master.etag, version);
  const occurrences = series.overrides.flatMap((o) => {
    const own = versionIn(o.etag, version);
    return own > whole ? [[o.id, own] as const] : [];
  });
  return { series: whole, occurrences: Object.fromEntries(occurrences) };
}

/**
 * A series as read, each event with its own etag: the master and every occurrence not edited on
 * its own carry the version of the last change to the whole series, an occurrence edited on its
 * own the later version of that edit. So editing one occurrence leaves its siblings' etags (and
 * `if_match` on them) valid, while a change to the whole series changes every etag.
 */
export function itemToSeries(item: StoredItem): { series: Series; version: number } & SeriesMarks {
  const parsed = SeriesItem.parse(item);
  const whole = parsed.revisions?.series ?? parsed.version;
  const own = parsed.revisions?.occurrences ?? {};
  return {
    series: {
      master: { ...parsed.series.master, etag: etagOf(whole) },
      overrides: parsed.series.overrides.map((o) => ({
        ...o,
        etag: etagOf(Math.max(whole, own[o.id] ?? whole)),
      })),
    },
    version: parsed.version,
    ...(parsed.pending ? { pending: parsed.pending } : {}),
    ...(parsed.split_into ? { split_into: parsed.split_into } : {}),
  };
}
