import { calendarMultiGet, calendarQuery, type DAVResponse, getBasicAuthHeaders } from 'tsdav';
import type {
  CalendarRef,
  CollectionSyncSource,
  ResourceTag,
  SyncedResource,
} from '../../core/ports/index.js';
import { CalDavCalendarProvider, type CalDavProviderOptions } from './caldav-calendar-provider.js';
import { CalDavClient } from './caldav-client.js';
import { guardedFetch } from './caldav-http.js';
import { CalDavResources } from './caldav-resources.js';
import { parseResource, type ReadContext } from './ical-mapping.js';

/** Widening of the server-side time-range: all-day and floating events are placed in UTC there. */
const SLACK_MS = 86_400_000;
/** Hrefs per calendar-multiget REPORT: one request for most changes, bounded bodies for a first sync. */
const MULTIGET_CHUNK = 100;

/**
 * The CalDAV provider plus what the shadow calendar's sync needs (CollectionSyncSource):
 * - `collectionTag`: PROPFIND Depth 0 of `CS:getctag` (CalendarServer extension, served by
 *   Radicale, Nextcloud, iCloud, Fastmail…), falling back to the RFC 6578 `DAV:sync-token`;
 *   the sync skips a calendar whose tag has not changed.
 * - `resourceTags`: a calendar-query REPORT for the resources with an event in a window, asking
 *   only for `DAV:getetag` (no calendar data), so comparing ETags costs one small request.
 * - `fetchResources`: calendar-multiget REPORTs for the changed resources only.
 *
 * Why not `sync-collection` (RFC 6578): it reports changes to the whole collection, while the
 * shadow covers a window; it would also need the time-range filtering redone client-side, and
 * some servers expire its tokens without saying. getctag + ETags need nothing the provider does
 * not already use.
 *
 * A subclass rather than changes to CalDavCalendarProvider, whose internals are private: it has
 * its own CalDavClient (principal discovery once per client, lazily) on the same connection.
 *
 * @example
 * const caldav = new SyncingCalDavProvider({ serverUrl, username, password, calendarPrefix: 'caldav/c1/' });
 * const tag = await caldav.collectionTag(ref);
 * const changed = (await caldav.resourceTags(ref, window)).filter((t) => known.get(t.href) !== t.etag);
 * const resources = await caldav.fetchResources(ref, changed.map((t) => t.href));
 */
export class SyncingCalDavProvider extends CalDavCalendarProvider implements CollectionSyncSource {
  private readonly syncClient: CalDavClient;
  private readonly syncResources: CalDavResources;
  private readonly guarded: typeof fetch;
  private readonly authHeaders: Record<string, string>;

  constructor(options: CalDavProviderOptions) {
    super(options);
    this.syncClient = new CalDavClient(options);
    this.syncResources = new CalDavResources(this.syncClient, options);
    this.guarded = guardedFetch(options.fetch ?? globalThis.fetch, options);
    this.authHeaders = getBasicAuthHeaders({ username: options.username, password: options.password });
  }

  async collectionTag(calendar: CalendarRef): Promise<string | undefined> {
    const url = await this.syncResources.calendarUrl(calendar);
    const [collection] = await this.syncClient.collections({ 'cs:getctag': {}, 'd:sync-token': {} }, url);
    const tag = textOf(collection?.props.getctag) || textOf(collection?.props.syncToken);
    return tag || undefined;
  }

  async resourceTags(
    calendar: CalendarRef,
    window: { fromMs: number; toMs: number },
  ): Promise<ResourceTag[]> {
    const url = await this.syncResources.calendarUrl(calendar);
    const range = { start: icalUtc(window.fromMs - SLACK_MS), end: icalUtc(window.toMs + SLACK_MS) };
    const responses = await calendarQuery({
      url,
      props: { 'd:getetag': {} },
      filters: {
        'c:comp-filter': {
          _attributes: { name: 'VCALENDAR' },
          'c:comp-filter': { _attributes: { name: 'VEVENT' }, 'c:time-range': { _attributes: range } },
        },
      },
      depth: '1',
      headers: this.authHeaders,
      fetch: this.guarded,
    });
    return responses.flatMap((response) =>
      response.href && response.ok
        ? [{ href: pathOf(response.href, url), etag: textOf(response.props?.getetag) }]
        : [],
    );
  }

  async fetchResources(calendar: CalendarRef, hrefs: readonly string[]): Promise<SyncedResource[]> {
    if (hrefs.length === 0) return [];
    const url = await this.syncResources.calendarUrl(calendar);
    const context = await this.syncResources.readContext(calendar, '');
    const resources: SyncedResource[] = [];
    for (let i = 0; i < hrefs.length; i += MULTIGET_CHUNK) {
      const responses = await calendarMultiGet({
        url,
        props: { 'd:getetag': {}, 'c:calendar-data': {} },
        objectUrls: hrefs.slice(i, i + MULTIGET_CHUNK),
        depth: '1',
        headers: this.authHeaders,
        fetch: this.guarded,
      });
      for (const response of responses) {
        const resource = toSyncedResource(response, url, context);
        if (resource) resources.push(resource);
      }
    }
    return resources;
  }
}

/**
 * One multiget answer as a resource; undefined for a resource that is gone (404 inside the
 * multistatus). One that cannot be read (another client's broken iCalendar) has no events: it is
 * still recorded with its ETag, so it is not fetched again until it changes.
 */
function toSyncedResource(
  response: DAVResponse,
  calendarUrl: string,
  context: ReadContext,
): SyncedResource | undefined {
  const data = textOf(response.props?.calendarData);
  if (!response.href || !response.ok || !data) return undefined;
  const etag = textOf(response.props?.getetag);
  const href = pathOf(response.href, calendarUrl);
  try {
    const parsed = parseResource(data, { ...context, etag });
    return { href, etag, events: [...(parsed.master ? [parsed.master] : []), ...parsed.overrides] };
  } catch {
    return { href, etag, events: [] };
  }
}

/** The path of an href as the server wrote it (absolute or not), kept percent-encoded. */
function pathOf(href: string, base: string): string {
  return new URL(href, base).pathname;
}

/** tsdav's XML parsing gives text as a string, a number (nativeType) or `{ _cdata }`. */
function textOf(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  const cdata = (value as { _cdata?: unknown } | undefined)?._cdata;
  return typeof cdata === 'string' ? cdata : '';
}

/** `YYYYMMDDTHHMMSSZ`, the form CalDAV time-range filters take. */
function icalUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}
